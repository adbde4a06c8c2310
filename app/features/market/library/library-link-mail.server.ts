import { PRODUCT_NAME } from "~/lib/product";
import { LIBRARY_LINK_HOURS } from "~/features/market/library/library-token.server";
import {
  htmlButton,
  htmlHeading,
  htmlParagraph,
  mailMessage,
} from "~/features/mail/message-layout";
import type { MailMessage } from "~/features/mail/message-layout";

/** The library link asked for on /library (or POST /api/library-link). */
export function renderLibraryLinkMail(input: { libraryUrl: string }): MailMessage {
  const subject = `Your ${PRODUCT_NAME} library link`;
  const where = `Here is the link to your ${PRODUCT_NAME} library, where each of your purchases has its Download and License links`;
  const validity = `This link works for ${LIBRARY_LINK_HOURS} hours. Opening it does not use a download.`;
  const ignore = "If you did not ask for it, you can ignore this message.";
  return mailMessage(
    subject,
    ["Hello,", "", `${where}:`, input.libraryUrl, "", validity, "", ignore],
    [
      htmlHeading("Your library link"),
      htmlParagraph(`${where}.`, "spaced"),
      htmlButton(input.libraryUrl, "Open your library"),
      htmlParagraph(`${validity} ${ignore}`, "small"),
    ],
  );
}
