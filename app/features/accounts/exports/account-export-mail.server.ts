import { escapeHtml } from "~/lib/html";
import { PRODUCT_NAME } from "~/lib/product";
import { htmlButton, htmlParagraph, mailMessage } from "~/features/mail/message-layout";
import type { MailMessage } from "~/features/mail/message-layout";
import { EXPORT_LINK_HOURS } from "~/features/accounts/exports/account-export-types";

/** The message that a creator's data export is ready: its download link (valid EXPORT_LINK_HOURS) and the Your data page. */
export function renderExportReadyMail(input: {
  firstName: string;
  link: string;
  settingsLink: string;
}): MailMessage {
  const greeting = input.firstName.trim() ? `Hi ${input.firstName.trim()},` : "Hi,";
  const subject = `Your ${PRODUCT_NAME} data is ready to download`;
  const ready = `The export of your ${PRODUCT_NAME} data you asked for is ready: one zip with your account, every image of yours, your listings, sales and payouts.`;
  const validity = `The link works for ${EXPORT_LINK_HOURS} hours; after that the zip is deleted and you can ask for a new export in Settings, Your data:`;
  const ignore = "If you did not ask for this, sign in and change your password.";
  return mailMessage(
    subject,
    [
      greeting,
      "",
      ready,
      "Download it here:",
      "",
      input.link,
      "",
      validity,
      input.settingsLink,
      "",
      ignore,
    ],
    [
      htmlParagraph(greeting),
      htmlParagraph(ready),
      htmlButton(input.link, "Download your data"),
      `<p>${escapeHtml(validity)} <a href="${escapeHtml(input.settingsLink)}">${escapeHtml(input.settingsLink)}</a></p>`,
      htmlParagraph(ignore),
    ],
  );
}
