import { PRODUCT_NAME } from "~/lib/product";
import { CREATOR_SHARE_PERCENT } from "~/features/payouts/types";
import { formatMoney } from "~/lib/money";
import {
  formatDay,
  htmlButton,
  htmlHeading,
  htmlParagraph,
  mailMessage,
  greeting,
} from "~/features/mail/message-layout";
import type { MailMessage } from "~/features/mail/message-layout";
import { itemText, saleItemsTableHtml } from "~/features/market/orders/order-mail-parts.server";

/**
 * The sale notice to a creator: which of their listings sold in one order, at
 * what price, their share of each sale as the earnings ledger recorded it, and
 * a link to the dashboard where their earnings are. A sale in the built-in test
 * checkout says so; on a production server it also says that it is not counted
 * in their earnings. Each sold item is named by its sale reference (as the
 * earnings and payouts show it), never by the order id: the order and its
 * license belong to the buyer.
 */
export interface SaleNoticeMailInput {
  creatorName: string;
  paidAt: string;
  items: {
    saleReference: string;
    title: string;
    style: string;
    priceCents: number;
    shareCents: number;
  }[];
  /** A sale in the built-in test checkout (earnings.test_mode): no money moved. */
  testMode: boolean;
  /** Whether test-checkout sales are left out of the creator's earnings (a production server). */
  testSalesExcluded: boolean;
  dashboardUrl: string;
}

export function saleNoticeSubject(): string {
  return `You made a sale on ${PRODUCT_NAME}`;
}

function testNotice(input: SaleNoticeMailInput): string | null {
  if (!input.testMode) return null;
  return input.testSalesExcluded
    ? "TEST SALE: this order was paid in the built-in test checkout. No money moved, and this sale is not counted in your earnings."
    : "TEST SALE: this order was paid in the built-in test checkout. No money moved.";
}

export function renderSaleNoticeMail(input: SaleNoticeMailInput): MailMessage {
  const subject = saleNoticeSubject();
  const totalShare = input.items.reduce((sum, item) => sum + item.shareCents, 0);
  const intro =
    input.items.length === 1
      ? `Good news: one of your listings sold on ${PRODUCT_NAME}.`
      : `Good news: ${input.items.length} of your listings sold on ${PRODUCT_NAME}.`;
  const notice = testNotice(input);
  const itemLine = (item: SaleNoticeMailInput["items"][number]) =>
    `${itemText(item)}: sold for ${formatMoney(item.priceCents)}, your share ${formatMoney(item.shareCents)} (sale ${item.saleReference})`;
  const text = [
    greeting("Hello", input.creatorName).text,
    "",
    intro,
    ...(notice ? ["", notice] : []),
    "",
    `Date: ${formatDay(input.paidAt)}`,
    "",
    ...input.items.map((item) => `- ${itemLine(item)}`),
    "",
    `Your share: ${formatMoney(totalShare)} (you keep ${CREATOR_SHARE_PERCENT}% of each sale)`,
    "",
    "See your earnings on your dashboard:",
    input.dashboardUrl,
  ];

  return mailMessage(subject, text, [
    htmlHeading("You made a sale"),
    greeting("Hello", input.creatorName, "spaced").html,
    htmlParagraph(intro, "spaced"),
    notice ? htmlParagraph(notice, "notice") : "",
    htmlParagraph(`Sold on ${formatDay(input.paidAt)}`, "spaced"),
    ...saleItemsTableHtml({
      caption: "What sold",
      items: input.items,
      columns: [
        { heading: "Price", cents: (item) => item.priceCents },
        { heading: "Your share", cents: (item) => item.shareCents },
      ],
      totalLabelHtml: `Your share (you keep ${CREATOR_SHARE_PERCENT}% of each sale)`,
      totalCents: totalShare,
    }),
    `<p style="margin:24px 0 0">Your earnings are on your dashboard.</p>`,
    htmlButton(input.dashboardUrl, "See your earnings"),
  ]);
}
