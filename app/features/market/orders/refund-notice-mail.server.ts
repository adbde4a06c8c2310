import { PRODUCT_NAME } from "~/lib/product";
import { escapeHtml } from "~/lib/html";
import { formatMoney } from "~/lib/money";
import {
  formatDay,
  htmlHeading,
  htmlParagraph,
  mailMessage,
  typedText,
  greeting,
} from "~/features/mail/message-layout";
import type { MailMessage } from "~/features/mail/message-layout";
import { itemHtml, itemText } from "~/features/market/orders/order-mail-parts.server";

/**
 * The refund notice to the buyer: how much came back and, when the whole
 * order was refunded, that its downloads and license ended.
 */
export interface RefundNoticeInput {
  customerName: string;
  orderId: string;
  refundedAt: string;
  /** This refund. */
  amountCents: number;
  /** Every refund of the order so far, and what was paid. */
  refundedTotalCents: number;
  totalCents: number;
  items: { title: string; style: string }[];
  testMode: boolean;
}

export function refundNoticeSubject(full: boolean): string {
  return full
    ? `Your ${PRODUCT_NAME} order was refunded`
    : `A partial refund of your ${PRODUCT_NAME} order`;
}

export function renderRefundNoticeMail(input: RefundNoticeInput): MailMessage {
  const full = input.refundedTotalCents >= input.totalCents;
  const subject = refundNoticeSubject(full);
  const amount = formatMoney(input.amountCents);
  const testNote =
    "TEST MODE: this order was paid in the built-in test checkout; no payment was taken, so none is returned.";
  const consequence = full
    ? "The order's download links no longer work and its license has been revoked."
    : `In all, ${formatMoney(input.refundedTotalCents)} of the ${formatMoney(input.totalCents)} you paid has been refunded. Your downloads and license stay valid.`;
  const returnNote = input.testMode
    ? ""
    : "The money goes back to the card you paid with; banks usually show it within 5 to 10 business days.";
  const hello = greeting("Hello", typedText(input.customerName), "spaced");
  const text = [
    hello.text,
    "",
    `We refunded ${amount} of your order ${input.orderId} on ${formatDay(input.refundedAt)}.`,
    ...(input.testMode ? ["", testNote] : []),
    "",
    ...input.items.map((item) => `- ${itemText(item)}`),
    "",
    consequence,
    ...(returnNote ? ["", returnNote] : []),
  ];
  return mailMessage(subject, text, [
    htmlHeading(full ? "Your order was refunded" : "A partial refund of your order"),
    hello.html,
    `<p style="margin:0 0 16px">We refunded <strong>${escapeHtml(amount)}</strong> of your order <span style="font-family:monospace">${escapeHtml(input.orderId)}</span> on ${escapeHtml(formatDay(input.refundedAt))}.</p>`,
    input.testMode ? htmlParagraph(testNote, "notice") : "",
    `<ul style="margin:0 0 16px;padding-left:20px">${input.items.map((item) => `<li>${itemHtml(item)}</li>`).join("")}</ul>`,
    htmlParagraph(consequence, "spaced"),
    returnNote ? htmlParagraph(returnNote, "small") : "",
  ]);
}
