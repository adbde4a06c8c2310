import { PRODUCT_NAME } from "~/lib/product";
import { htmlButton, htmlParagraph, mailMessage } from "~/features/mail/message-layout";
import {
  greetingOf,
  renderAddressInUseMail,
  type AccountMail,
} from "~/features/accounts/account-mail-parts.server";
import { EMAIL_CHANGE_LINK_HOURS } from "~/features/accounts/profile/email-change.server";

/** The messages of an email change, each a plain-text part and an HTML part in the shared layout, every value escaped. */

export type EmailChangeMail = AccountMail;

/** To the new address: the link that makes the change. */
export function renderConfirmEmailChangeMail(input: {
  firstName: string;
  newEmail: string;
  link: string;
}): EmailChangeMail {
  const hello = greetingOf(input.firstName);
  const subject = `Confirm your new ${PRODUCT_NAME} email`;
  const asked = `Someone, hopefully you, asked to use ${input.newEmail} for a ${PRODUCT_NAME} account.`;
  const open =
    "Open this link and press Confirm to make the change (you will be asked to sign in if you are not):";
  const validity = `The link works once and is valid for ${EMAIL_CHANGE_LINK_HOURS} hours.`;
  const ignore = "If you did not ask for this, ignore this email: nothing changes.";
  return mailMessage(
    subject,
    [hello.text, "", asked, open, "", input.link, "", validity, ignore],
    [
      hello.html,
      htmlParagraph(asked),
      htmlButton(input.link, "Confirm my new email"),
      htmlParagraph(validity),
      htmlParagraph(ignore),
    ],
  );
}

/** To the old address: a notice that a change was asked for, and what to do if it was not you. */
export function renderEmailChangeNoticeMail(input: {
  firstName: string;
  newEmail: string;
  settingsLink: string;
  resetLink: string;
}): EmailChangeMail {
  const hello = greetingOf(input.firstName);
  const subject = `Your ${PRODUCT_NAME} email is about to change`;
  const asked = `Someone signed in to your ${PRODUCT_NAME} account asked to change its email to ${input.newEmail}.`;
  const when = `The change happens only if the link sent to that address is opened within ${EMAIL_CHANGE_LINK_HOURS} hours.`;
  const notYou =
    "If this was not you, change your password now; your settings show the change waiting.";
  return mailMessage(
    subject,
    [
      hello.text,
      "",
      asked,
      when,
      "",
      notYou,
      "",
      `Settings: ${input.settingsLink}`,
      `Reset your password: ${input.resetLink}`,
    ],
    [
      hello.html,
      htmlParagraph(asked),
      htmlParagraph(when),
      htmlParagraph(notYou),
      htmlButton(input.resetLink, "Reset my password"),
    ],
  );
}

/**
 * To an address another account already has, instead of the link: someone
 * asked to move their account to it, nothing changed. It names neither the
 * asker nor anything they typed.
 */
export function renderEmailTakenNoticeMail(input: {
  firstName: string;
  signInLink: string;
  resetLink: string;
}): EmailChangeMail {
  return renderAddressInUseMail({
    ...input,
    subject: `Someone tried to use your email for another ${PRODUCT_NAME} account`,
    tried: `Someone signed in to another ${PRODUCT_NAME} account asked to change its email to this address. This address already has an account, so nothing changed and no link was sent.`,
    signIn: "Your account is not affected. To use it, sign in:",
    ignore: "If you did not expect this, you can ignore this email.",
  });
}
