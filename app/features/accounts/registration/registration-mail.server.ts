import { PRODUCT_NAME } from "~/lib/product";
import { htmlButton, htmlParagraph, mailMessage } from "~/features/mail/message-layout";
import {
  greetingOf,
  renderAddressInUseMail,
  type AccountMail,
} from "~/features/accounts/account-mail-parts.server";
import { REGISTRATION_LINK_HOURS } from "~/features/accounts/registration/registration-links.server";

/**
 * The two messages a registration sends: to a new address, the link that
 * creates the account; to an address that has an account already, a notice
 * that someone tried, with the ways in. Plain text and HTML, every value escaped.
 * Anyone can type the address and the name, so the name is repeated only as
 * one short line (typedText, as receipts do) and never in a subject.
 */

export type RegistrationMail = AccountMail;

const IGNORE = "If you did not ask for this, you can ignore this email.";

export function renderCreateAccountMail(input: {
  firstName: string;
  link: string;
}): RegistrationMail {
  const hello = greetingOf(input.firstName);
  const subject = `Finish creating your ${PRODUCT_NAME} account`;
  const asked = `Someone, hopefully you, registered this email address at ${PRODUCT_NAME}.`;
  const validity = `Open this link within ${REGISTRATION_LINK_HOURS} hours to create your account and sign in:`;
  return mailMessage(
    subject,
    [hello.text, "", asked, validity, "", input.link, "", IGNORE],
    [
      hello.html,
      htmlParagraph(asked),
      htmlParagraph(validity),
      htmlButton(input.link, "Create my account"),
      htmlParagraph(IGNORE),
    ],
  );
}

export function renderAlreadyRegisteredMail(input: {
  firstName: string;
  signInLink: string;
  resetLink: string;
}): RegistrationMail {
  return renderAddressInUseMail({
    ...input,
    subject: `Someone tried to create an account with your email at ${PRODUCT_NAME}`,
    tried: `Someone tried to register a new ${PRODUCT_NAME} account with this email address, which already has an account. No new account was made.`,
    signIn: "If it was you, sign in instead:",
    ignore: IGNORE,
  });
}
