import {
  greeting,
  htmlButton,
  htmlParagraph,
  mailMessage,
  typedText,
} from "~/features/mail/message-layout";
import type { MailMessage } from "~/features/mail/message-layout";

/**
 * What the accounts' messages share. A name is its owner's choice and goes to
 * an address someone typed, so it is repeated only as one short line
 * (typedText, as receipts do) and never in a subject.
 */

export type AccountMail = MailMessage;

export const greetingOf = (firstName: string) => greeting("Hi", typedText(firstName));

/**
 * To an address that already has an account, when someone tried to take it
 * (a registration, an email change): what was tried, the way in, the
 * password reset. It names neither the person who tried nor anything they typed
 * but the greeting's name.
 */
export function renderAddressInUseMail(input: {
  firstName: string;
  subject: string;
  tried: string;
  signIn: string;
  ignore: string;
  signInLink: string;
  resetLink: string;
}): AccountMail {
  const hello = greetingOf(input.firstName);
  const reset = "Forgot your password? Reset it here:";
  return mailMessage(
    input.subject,
    [
      hello.text,
      "",
      input.tried,
      "",
      input.signIn,
      input.signInLink,
      "",
      reset,
      input.resetLink,
      "",
      input.ignore,
    ],
    [
      hello.html,
      htmlParagraph(input.tried),
      htmlParagraph(input.signIn),
      htmlButton(input.signInLink, "Sign in"),
      htmlParagraph(reset),
      htmlButton(input.resetLink, "Reset my password"),
      htmlParagraph(input.ignore),
    ],
  );
}
