import { PRODUCT_NAME } from "~/lib/product";
import { LIBRARY_LINK_HOURS } from "~/features/market/library/library-token.server";
import { escapeHtml } from "~/lib/html";
import { formatMoney } from "~/lib/money";
import {
  formatDay,
  htmlButton,
  htmlHeading,
  htmlParagraph,
  mailMessage,
  typedText,
  greeting,
} from "~/features/mail/message-layout";
import type { MailMessage } from "~/features/mail/message-layout";
import { itemHtml, itemText } from "~/features/market/orders/order-mail-parts.server";

/**
 * The purchase receipt: the items and the total, and a link to the buyer's
 * library (never a /downloads link: a mail scanner that follows links must
 * not spend a download). The address and the name are what the buyer typed,
 * so the name is kept out of the subject and repeated only as one short line
 * (typedText), escaped in the HTML part.
 */
export interface ReceiptMailInput {
  customerName: string;
  orderId: string;
  paidAt: string;
  /** Each item with the name of the licence it was sold with (decision 101), when known. */
  items: { title: string; style: string; priceCents: number; licenseName?: string }[];
  totalCents: number;
  /** The subtotal, discount and tax, shown above the total when there is a discount or tax (or a reverse charge). */
  breakdown?: {
    subtotalCents: number;
    discountCents: number;
    taxCents: number;
    /** "VAT 19% (Germany)". */
    taxLabel: string;
    /** The reverse charge's sentence, when it applied. */
    reverseChargeNote: string | null;
  };
  testMode: boolean;
  libraryUrl: string;
  /** Where it was bought when not on our marketplace ("the Shopify store x.myshopify.com (order #1001)"): that store took the payment. */
  soldIn?: string;
}

export function receiptSubject(): string {
  return `Your ${PRODUCT_NAME} receipt`;
}

export function renderReceiptMail(input: ReceiptMailInput): MailMessage {
  const subject = receiptSubject();
  const name = typedText(input.customerName);
  const itemLine = (item: ReceiptMailInput["items"][number]) =>
    `${itemText(item)}${item.licenseName ? `, ${item.licenseName}` : ""}: ${formatMoney(item.priceCents)}`;
  const soldIn = input.soldIn
    ? `Thank you for your purchase in ${input.soldIn}. The payment was taken there; ${PRODUCT_NAME} delivers your image and its licence.`
    : null;
  const testNote =
    "TEST MODE: this order was paid in the built-in test checkout; no payment was taken.";
  const validity = `This link works for ${LIBRARY_LINK_HOURS} hours. Opening it does not use a download. After that, ask for a new one on the library page.`;
  const breakdown = input.breakdown;
  const shown =
    breakdown &&
    (breakdown.taxCents > 0 || breakdown.discountCents > 0 || breakdown.reverseChargeNote)
      ? breakdown
      : null;
  const breakdownLines: [string, string][] = shown
    ? [
        ["Subtotal", formatMoney(shown.subtotalCents)],
        ...(shown.discountCents > 0
          ? [["Discount", `-${formatMoney(shown.discountCents)}`] as [string, string]]
          : []),
        ...(shown.taxCents > 0
          ? [[shown.taxLabel, formatMoney(shown.taxCents)] as [string, string]]
          : []),
      ]
    : [];
  const reverseCharge = shown?.reverseChargeNote ?? null;
  const text = [
    greeting("Hello", name).text,
    "",
    soldIn ?? `Thank you for your purchase from ${PRODUCT_NAME}.`,
    ...(input.testMode ? ["", testNote] : []),
    "",
    `Order: ${input.orderId}`,
    `Date: ${formatDay(input.paidAt)}`,
    "",
    ...input.items.map((item) => `- ${itemLine(item)}`),
    "",
    ...breakdownLines.map(([label, value]) => `${label}: ${value}`),
    ...(reverseCharge ? [reverseCharge] : []),
    `Total: ${formatMoney(input.totalCents)}`,
    "",
    "Your downloads and licenses are in your library:",
    input.libraryUrl,
    "",
    validity,
  ];

  const rows = input.items
    .map(
      (item) =>
        `<tr><td style="padding:8px 0;border-bottom:1px solid #e2e8f0">${itemHtml(item)}${item.licenseName ? `<br><span style="font-size:14px;color:#475569">${escapeHtml(item.licenseName)}</span>` : ""}</td>` +
        `<td style="padding:8px 0;border-bottom:1px solid #e2e8f0;text-align:right">${escapeHtml(formatMoney(item.priceCents))}</td></tr>`,
    )
    .join("\n");
  return mailMessage(subject, text, [
    htmlHeading("Thank you for your purchase"),
    greeting("Hello", name, "spaced").html,
    soldIn ? htmlParagraph(soldIn, "spaced") : "",
    input.testMode ? htmlParagraph(testNote, "notice") : "",
    `<p style="margin:0 0 16px">Order <span style="font-family:monospace">${escapeHtml(input.orderId)}</span>, ${escapeHtml(formatDay(input.paidAt))}</p>`,
    `<table role="presentation" style="width:100%;border-collapse:collapse">`,
    `<caption style="text-align:left;font-weight:bold;padding-bottom:8px">Your items</caption>`,
    rows,
    ...breakdownLines.map(
      ([label, value]) =>
        `<tr><td style="padding:4px 0">${escapeHtml(label)}</td><td style="padding:4px 0;text-align:right">${escapeHtml(value)}</td></tr>`,
    ),
    reverseCharge
      ? `<tr><td colspan="2" style="padding:4px 0">${escapeHtml(reverseCharge)}</td></tr>`
      : "",
    `<tr><td style="padding:8px 0;font-weight:bold">Total</td><td style="padding:8px 0;text-align:right;font-weight:bold">${escapeHtml(formatMoney(input.totalCents))}</td></tr>`,
    `</table>`,
    `<p style="margin:24px 0 0">Your downloads and licenses are in your library.</p>`,
    htmlButton(input.libraryUrl, "Open your library"),
    htmlParagraph(validity, "small"),
  ]);
}
