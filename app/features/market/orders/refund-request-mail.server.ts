import { PRODUCT_NAME } from "~/lib/product";
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
 * The messages of a buyer's refund request: the notice to each creator whose
 * items it names (by sale reference, never the order id, and without the
 * buyer's words or address: those are the buyer's), the notice to the admin
 * (the order id and a link to the portal, where the reason is read), and the
 * admin's decline to the buyer with the admin's reason. An approval sends the
 * refund notice and the share-reversed notices every refund sends.
 */

const TEST_ORDER = "TEST SALE: this order was paid in the built-in test checkout. No money moved.";

export function refundRequestedCreatorSubject(): string {
  return `A buyer asked for a refund of a sale on ${PRODUCT_NAME}`;
}

export function renderRefundRequestedCreatorMail(input: {
  creatorName: string;
  requestedAt: string;
  windowDays: number;
  items: { saleReference: string; title: string; style: string }[];
  testMode: boolean;
}): MailMessage {
  const subject = refundRequestedCreatorSubject();
  const what = input.items.length === 1 ? "an item" : `${input.items.length} items`;
  const intro = `A buyer asked for a refund of ${what} you sold on ${PRODUCT_NAME}, within the ${input.windowDays} days after payment in which buyers may ask.`;
  const next =
    "The admin decides. If the order is refunded, your share of it is reversed and you get the usual notice; if not, nothing changes.";
  const line = (item: (typeof input.items)[number]) =>
    `${itemText(item)} (sale ${item.saleReference})`;
  return mailMessage(
    subject,
    [
      greeting("Hello", input.creatorName).text,
      "",
      intro,
      ...(input.testMode ? ["", TEST_ORDER] : []),
      "",
      `Asked on ${formatDay(input.requestedAt)}:`,
      ...input.items.map((item) => `- ${line(item)}`),
      "",
      next,
    ],
    [
      htmlHeading("A buyer asked for a refund"),
      greeting("Hello", input.creatorName, "spaced").html,
      htmlParagraph(intro, "spaced"),
      input.testMode ? htmlParagraph(TEST_ORDER, "notice") : "",
      htmlParagraph(`Asked on ${formatDay(input.requestedAt)}:`, "spaced"),
      `<ul style="margin:0 0 16px;padding-left:20px">${input.items
        .map(
          (item) =>
            `<li>${itemHtml(item)} <span style="font-size:14px;color:#475569">(sale <span style="font-family:monospace">${escapeHtml(item.saleReference)}</span>)</span></li>`,
        )
        .join("")}</ul>`,
      htmlParagraph(next, "spaced"),
    ],
  );
}

export function refundRequestedAdminSubject(): string {
  return `A refund request waits for a decision on ${PRODUCT_NAME}`;
}

export function renderRefundRequestedAdminMail(input: {
  orderId: string;
  requestedAt: string;
  paidAt: string;
  totalCents: number;
  currency: string;
  items: { title: string; style: string }[];
  /** The admin portal's Refund requests section, when the server knows its public address. */
  reviewUrl: string | null;
  testMode: boolean;
}): MailMessage {
  const subject = refundRequestedAdminSubject();
  const intro = `A buyer asked for a refund of order ${input.orderId} (${formatMoney(input.totalCents, input.currency)}, paid on ${formatDay(input.paidAt)}) on ${formatDay(input.requestedAt)}.`;
  const where = input.reviewUrl
    ? "Read the buyer's reason and approve or decline it in the admin portal:"
    : "Read the buyer's reason and approve or decline it in the admin portal's Refund requests.";
  return mailMessage(
    subject,
    [
      "Hello,",
      "",
      intro,
      ...(input.testMode ? ["", TEST_ORDER] : []),
      "",
      ...input.items.map((item) => `- ${itemText(item)}`),
      "",
      where,
      ...(input.reviewUrl ? [input.reviewUrl] : []),
    ],
    [
      htmlHeading("A refund request waits for a decision"),
      htmlParagraph("Hello,", "spaced"),
      htmlParagraph(intro, "spaced"),
      input.testMode ? htmlParagraph(TEST_ORDER, "notice") : "",
      `<ul style="margin:0 0 16px;padding-left:20px">${input.items.map((item) => `<li>${itemHtml(item)}</li>`).join("")}</ul>`,
      input.reviewUrl
        ? htmlButton(input.reviewUrl, "Open the refund requests")
        : htmlParagraph(where, "spaced"),
    ],
  );
}

export function refundDeclinedSubject(): string {
  return `Your refund request to ${PRODUCT_NAME} was declined`;
}

export function renderRefundDeclinedMail(input: {
  customerName: string;
  orderId: string;
  requestedAt: string;
  reason: string;
  items: { title: string; style: string }[];
}): MailMessage {
  const subject = refundDeclinedSubject();
  const hello = greeting("Hello", typedText(input.customerName), "spaced");
  const intro = `We looked at the refund you asked for on ${formatDay(input.requestedAt)} for your order ${input.orderId}, and declined it.`;
  const why = `Why: ${typedText(input.reason, 1000)}`;
  const keep =
    "Your downloads and license stay as they were. If you think this is wrong, reply to this email.";
  return mailMessage(
    subject,
    [
      hello.text,
      "",
      intro,
      "",
      ...input.items.map((item) => `- ${itemText(item)}`),
      "",
      why,
      "",
      keep,
    ],
    [
      htmlHeading("Your refund request was declined"),
      hello.html,
      htmlParagraph(intro, "spaced"),
      `<ul style="margin:0 0 16px;padding-left:20px">${input.items.map((item) => `<li>${itemHtml(item)}</li>`).join("")}</ul>`,
      htmlParagraph(why, "spaced"),
      htmlParagraph(keep, "spaced"),
    ],
  );
}
