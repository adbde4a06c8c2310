import { PRODUCT_NAME } from "~/lib/product";
import { formatMoney } from "~/lib/money";
import {
  formatDay,
  htmlHeading,
  htmlParagraph,
  mailMessage,
  greeting,
} from "~/features/mail/message-layout";
import type { MailMessage } from "~/features/mail/message-layout";
import { itemText, saleItemsTableHtml } from "~/features/market/orders/order-mail-parts.server";

/**
 * The notice to a creator that a refund took back (part of) their share: which
 * of their items the buyer was refunded for, by sale reference (never the order
 * id: the order belongs to the buyer), and how much of their share each refund
 * reversed, so a share shown "Reversed" in their earnings never comes as a
 * surprise, and why when the refund came of itself (the buyer asked within
 * the refund window, the card's issuer warned of fraud). A test sale says no
 * money moved.
 */
export interface ShareReversedMailInput {
  creatorName: string;
  refundedAt: string;
  items: { saleReference: string; title: string; style: string; reversedCents: number }[];
  testMode: boolean;
  /** Why the order was refunded, one sentence for the creator (none for a refund the admin or Stripe made without saying). */
  reason?: string | null;
}

export function shareReversedSubject(): string {
  return `A refund reversed your share of a sale on ${PRODUCT_NAME}`;
}

export function renderShareReversedMail(input: ShareReversedMailInput): MailMessage {
  const subject = shareReversedSubject();
  const total = input.items.reduce((sum, item) => sum + item.reversedCents, 0);
  const what = input.items.length === 1 ? "an item" : `${input.items.length} items`;
  const intro = `A buyer was refunded for ${what} you sold on ${PRODUCT_NAME}, so that part of your share is reversed.`;
  const notice = input.testMode
    ? "TEST SALE: this order was paid in the built-in test checkout. No money moved."
    : null;
  const itemLine = (item: ShareReversedMailInput["items"][number]) =>
    `${itemText(item)}: your share reversed ${formatMoney(item.reversedCents)} (sale ${item.saleReference})`;
  const text = [
    greeting("Hello", input.creatorName).text,
    "",
    intro,
    ...(input.reason ? ["", `Why: ${input.reason}`] : []),
    ...(notice ? ["", notice] : []),
    "",
    `Date: ${formatDay(input.refundedAt)}`,
    "",
    ...input.items.map((item) => `- ${itemLine(item)}`),
    "",
    `Reversed in total: ${formatMoney(total)}`,
  ];
  return mailMessage(subject, text, [
    htmlHeading("A refund reversed your share"),
    greeting("Hello", input.creatorName, "spaced").html,
    htmlParagraph(intro, "spaced"),
    input.reason ? htmlParagraph(`Why: ${input.reason}`, "spaced") : "",
    notice ? htmlParagraph(notice, "notice") : "",
    htmlParagraph(`Refunded on ${formatDay(input.refundedAt)}`, "spaced"),
    ...saleItemsTableHtml({
      caption: "What was refunded",
      items: input.items,
      columns: [{ heading: "Your share reversed", cents: (item) => item.reversedCents }],
      totalLabelHtml: "Reversed in total",
      totalCents: total,
    }),
  ]);
}
