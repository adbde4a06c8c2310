import { PRODUCT_NAME } from "~/lib/product";
import { greetingOf } from "~/features/accounts/account-mail-parts.server";
import { htmlButton, htmlParagraph, mailMessage } from "~/features/mail/message-layout";
import type { MailMessage } from "~/features/mail/message-layout";
import { RESET_LINK_MINUTES } from "~/features/accounts/passwords/password-reset.server";

/** The password reset message: a plain-text part and an HTML part in the messages' shared layout, every value escaped. */

export type ResetMail = MailMessage;

export function renderResetPasswordMail(input: { firstName: string; link: string }): ResetMail {
  const hello = greetingOf(input.firstName);
  const subject = `Reset your ${PRODUCT_NAME} password`;
  const asked = `Someone, hopefully you, asked to reset the password of your ${PRODUCT_NAME} account.`;
  const validity = `The link works once and is valid for ${RESET_LINK_MINUTES} minutes.`;
  const ignore =
    "If you did not ask for this, you can ignore this email: your password stays as it is.";
  return mailMessage(
    subject,
    [
      hello.text,
      "",
      asked,
      "Open this link to choose a new password:",
      "",
      input.link,
      "",
      validity,
      ignore,
    ],
    [
      hello.html,
      htmlParagraph(asked),
      htmlButton(input.link, "Choose a new password"),
      htmlParagraph(validity),
      htmlParagraph(ignore),
    ],
  );
}
