import { PRODUCT_NAME } from "~/lib/product";
import { LIBRARY_LINK_HOURS } from "~/features/market/library-token.server";
import { escapeHtml } from "~/lib/html";
import { htmlButton, htmlMessage } from "~/features/mail/message-layout";

/** The library link asked for on /library (or POST /api/library-link). */
export function renderLibraryLinkMail(input: { libraryUrl: string }): {
  subject: string;
  text: string;
  html: string;
} {
  const subject = `Your ${PRODUCT_NAME} library link`;
  const text = [
    "Hello,",
    "",
    `Here is the link to your ${PRODUCT_NAME} library, where each of your purchases has its Download and License links:`,
    input.libraryUrl,
    "",
    `This link works for ${LIBRARY_LINK_HOURS} hours. Opening it does not use a download.`,
    "",
    "If you did not ask for it, you can ignore this message.",
    "",
    PRODUCT_NAME,
    "",
  ].join("\n");
  const body = [
    `<h1 style="margin:0 0 16px;font-size:24px">Your library link</h1>`,
    `<p style="margin:0 0 16px">Here is the link to your ${escapeHtml(PRODUCT_NAME)} library, where each of your purchases has its Download and License links.</p>`,
    htmlButton(input.libraryUrl, "Open your library"),
    `<p style="margin:0 0 16px;font-size:14px;color:#475569">This link works for ${LIBRARY_LINK_HOURS} hours. Opening it does not use a download. If you did not ask for it, you can ignore this message.</p>`,
  ].join("\n");
  return { subject, text, html: htmlMessage(subject, body) };
}
