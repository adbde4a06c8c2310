import { escapeHtml } from "~/lib/html";
import { PRODUCT_NAME } from "~/lib/product";
import { htmlButton, htmlMessage } from "~/features/mail/message-layout";
import { EXPORT_LINK_HOURS } from "~/features/accounts/account-export-types";

/** The message that a creator's data export is ready: its download link (valid EXPORT_LINK_HOURS) and the Your data page. */
export function renderExportReadyMail(input: {
  firstName: string;
  link: string;
  settingsLink: string;
}): {
  subject: string;
  text: string;
  html: string;
} {
  const greeting = input.firstName.trim() ? `Hi ${input.firstName.trim()},` : "Hi,";
  const subject = `Your ${PRODUCT_NAME} data is ready to download`;
  const ready = `The export of your ${PRODUCT_NAME} data you asked for is ready: one zip with your account, every image of yours, your listings, sales and payouts.`;
  const validity = `The link works for ${EXPORT_LINK_HOURS} hours; after that the zip is deleted and you can ask for a new export in Settings, Your data:`;
  const ignore = "If you did not ask for this, sign in and change your password.";
  const text = [
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
    "",
    PRODUCT_NAME,
    "",
  ].join("\n");
  const html = htmlMessage(
    subject,
    [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(ready)}</p>`,
      htmlButton(input.link, "Download your data"),
      `<p>${escapeHtml(validity)} <a href="${escapeHtml(input.settingsLink)}">${escapeHtml(input.settingsLink)}</a></p>`,
      `<p>${escapeHtml(ignore)}</p>`,
    ].join("\n"),
  );
  return { subject, text, html };
}
