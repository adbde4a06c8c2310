import { PRODUCT_NAME } from "~/lib/product";
import { styleName } from "~/lib/styles";
import { LIBRARY_LINK_HOURS } from "~/features/market/library-token.server";
import { escapeHtml } from "~/lib/html";
import { formatMoney } from "~/lib/money";
import { formatDay, htmlButton, htmlMessage, typedText } from "~/features/mail/message-layout";

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
  items: { title: string; style: string; priceCents: number }[];
  totalCents: number;
  testMode: boolean;
  libraryUrl: string;
  /** Where it was bought when not on our marketplace ("the Shopify store x.myshopify.com (order #1001)"): that store took the payment. */
  soldIn?: string;
}

export function receiptSubject(): string {
  return `Your ${PRODUCT_NAME} receipt`;
}

export function renderReceiptMail(input: ReceiptMailInput): {
  subject: string;
  text: string;
  html: string;
} {
  const subject = receiptSubject();
  const name = typedText(input.customerName);
  const itemLine = (item: ReceiptMailInput["items"][number]) =>
    `${item.title} (${styleName(item.style)} style): ${formatMoney(item.priceCents)}`;
  const text = [
    `Hello ${name},`,
    "",
    input.soldIn
      ? `Thank you for your purchase in ${input.soldIn}. The payment was taken there; ${PRODUCT_NAME} delivers your image and its licence.`
      : `Thank you for your purchase from ${PRODUCT_NAME}.`,
    ...(input.testMode
      ? ["", "TEST MODE: this order was paid in the built-in test checkout; no payment was taken."]
      : []),
    "",
    `Order: ${input.orderId}`,
    `Date: ${formatDay(input.paidAt)}`,
    "",
    ...input.items.map((item) => `- ${itemLine(item)}`),
    "",
    `Total: ${formatMoney(input.totalCents)}`,
    "",
    "Your downloads and licenses are in your library:",
    input.libraryUrl,
    "",
    `This link works for ${LIBRARY_LINK_HOURS} hours. Opening it does not use a download. After that, ask for a new one on the library page.`,
    "",
    `${PRODUCT_NAME}`,
    "",
  ].join("\n");

  const rows = input.items
    .map(
      (item) =>
        `<tr><td style="padding:8px 0;border-bottom:1px solid #e2e8f0">${escapeHtml(item.title)} <span style="color:#475569">(${escapeHtml(styleName(item.style))} style)</span></td>` +
        `<td style="padding:8px 0;border-bottom:1px solid #e2e8f0;text-align:right">${escapeHtml(formatMoney(item.priceCents))}</td></tr>`,
    )
    .join("\n");
  const body = [
    `<h1 style="margin:0 0 16px;font-size:24px">Thank you for your purchase</h1>`,
    `<p style="margin:0 0 16px">Hello ${escapeHtml(name)},</p>`,
    input.soldIn
      ? `<p style="margin:0 0 16px">Thank you for your purchase in ${escapeHtml(input.soldIn)}. The payment was taken there; ${escapeHtml(PRODUCT_NAME)} delivers your image and its licence.</p>`
      : "",
    input.testMode
      ? `<p style="margin:0 0 16px;padding:8px 12px;background:#fffbeb;color:#92400e;font-weight:bold">TEST MODE: this order was paid in the built-in test checkout; no payment was taken.</p>`
      : "",
    `<p style="margin:0 0 16px">Order <span style="font-family:monospace">${escapeHtml(input.orderId)}</span>, ${escapeHtml(formatDay(input.paidAt))}</p>`,
    `<table role="presentation" style="width:100%;border-collapse:collapse">`,
    `<caption style="text-align:left;font-weight:bold;padding-bottom:8px">Your items</caption>`,
    rows,
    `<tr><td style="padding:8px 0;font-weight:bold">Total</td><td style="padding:8px 0;text-align:right;font-weight:bold">${escapeHtml(formatMoney(input.totalCents))}</td></tr>`,
    `</table>`,
    `<p style="margin:24px 0 0">Your downloads and licenses are in your library.</p>`,
    htmlButton(input.libraryUrl, "Open your library"),
    `<p style="margin:0 0 16px;font-size:14px;color:#475569">This link works for ${LIBRARY_LINK_HOURS} hours. Opening it does not use a download. After that, ask for a new one on the library page.</p>`,
  ]
    .filter(Boolean)
    .join("\n");
  return { subject, text, html: htmlMessage(subject, body) };
}
