import { PRODUCT_NAME } from "~/lib/product";
import { escapeHtml } from "~/lib/html";
import { formatMoney } from "~/lib/money";
import {
  formatDay,
  htmlHeading,
  htmlParagraph,
  mailMessage,
  greeting,
} from "~/features/mail/message-layout";
import type { MailMessage } from "~/features/mail/message-layout";
import { itemText, saleItemCellHtml } from "~/features/market/orders/order-mail-parts.server";

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
  const cell = "padding:8px 0;border-bottom:1px solid #e2e8f0";
  const rows = input.items
    .map(
      (item) =>
        `<tr>${saleItemCellHtml(item, cell)}` +
        `<td style="${cell};text-align:right">${escapeHtml(formatMoney(item.reversedCents))}</td></tr>`,
    )
    .join("\n");
  return mailMessage(subject, text, [
    htmlHeading("A refund reversed your share"),
    greeting("Hello", input.creatorName, "spaced").html,
    htmlParagraph(intro, "spaced"),
    input.reason ? htmlParagraph(`Why: ${input.reason}`, "spaced") : "",
    notice ? htmlParagraph(notice, "notice") : "",
    htmlParagraph(`Refunded on ${formatDay(input.refundedAt)}`, "spaced"),
    `<table style="width:100%;border-collapse:collapse">`,
    `<caption style="text-align:left;font-weight:bold;padding-bottom:8px">What was refunded</caption>`,
    `<thead><tr><th scope="col" style="text-align:left;padding:8px 0;border-bottom:1px solid #e2e8f0">Item</th>` +
      `<th scope="col" style="text-align:right;padding:8px 0;border-bottom:1px solid #e2e8f0">Your share reversed</th></tr></thead>`,
    `<tbody>`,
    rows,
    `<tr><td style="padding:8px 0;font-weight:bold">Reversed in total</td>` +
      `<td style="padding:8px 0;text-align:right;font-weight:bold">${escapeHtml(formatMoney(total))}</td></tr>`,
    `</tbody>`,
    `</table>`,
  ]);
}
