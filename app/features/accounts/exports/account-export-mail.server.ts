import { PRODUCT_NAME } from "~/lib/product";
import { greetingOf } from "~/features/accounts/account-mail-parts.server";
import { htmlButton, htmlParagraph, mailMessage } from "~/features/mail/message-layout";
import type { MailMessage } from "~/features/mail/message-layout";
import { EXPORT_LINK_HOURS } from "~/features/accounts/exports/account-export-types";

/**
 * The message that a creator's data export is ready. It carries no download
 * link, only the Your data page: the zip opens for the signed-in owner, so a
 * forwarded or intercepted mail gives no one the data.
 */
export function renderExportReadyMail(input: {
  firstName: string;
  settingsLink: string;
}): MailMessage {
  const hello = greetingOf(input.firstName);
  const subject = `Your ${PRODUCT_NAME} data is ready to download`;
  const ready = `The export of your ${PRODUCT_NAME} data you asked for is ready: one zip with your account, every image of yours, your listings, sales and payouts.`;
  const where = `Sign in and download it from Settings, Your data, within ${EXPORT_LINK_HOURS} hours; after that the zip is deleted and you can ask for a new export there:`;
  const ignore = "If you did not ask for this, sign in and change your password.";
  return mailMessage(
    subject,
    [hello.text, "", ready, "", where, input.settingsLink, "", ignore],
    [
      hello.html,
      htmlParagraph(ready),
      htmlParagraph(where),
      htmlButton(input.settingsLink, "Go to Your data"),
      htmlParagraph(ignore),
    ],
  );
}
