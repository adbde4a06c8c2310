import { PRODUCT_NAME } from "~/lib/product";
import { htmlButton, htmlParagraph, mailMessage } from "~/features/mail/message-layout";
import type { MailMessage } from "~/features/mail/message-layout";
import { INVITATION_DAYS } from "~/features/accounts/registration/waitlist.server";

/**
 * The waitlist's two messages: the confirmation that an address joined, and
 * the admin's invitation with the link that opens registration for it.
 * Plain text and HTML, every value escaped.
 */

export type WaitlistMail = MailMessage;

const IGNORE = "If you did not ask for this, you can ignore this email.";

/**
 * The confirmation states the beta's spots as the landing page does: `spots`
 * is betaSpotsLeft's answer (BETA_SPOTS minus the spots taken), the one figure
 * both read, so the mail says "full" only when the landing shows 0 left.
 */
export function renderWaitlistJoinedMail(spots: { total: number; left: number }): WaitlistMail {
  const subject = `You're on the ${PRODUCT_NAME} waitlist`;
  const joined =
    spots.left > 0
      ? `This address is on the ${PRODUCT_NAME} beta waitlist. Registration is by invitation during the beta, and ${spots.left} of ${spots.total} beta spots are left; we'll email this address an invitation with a link to create your account when one is yours.`
      : `This address is on the ${PRODUCT_NAME} beta waitlist. Registration is closed while the beta is full (all ${spots.total} spots are taken); when a spot opens we'll email this address an invitation with a link to create your account.`;
  const nothing = "There is nothing else to do until then.";
  return mailMessage(
    subject,
    ["Hi,", "", joined, nothing, "", IGNORE],
    [htmlParagraph("Hi,"), htmlParagraph(joined), htmlParagraph(nothing), htmlParagraph(IGNORE)],
  );
}

export function renderInvitationMail(input: { link: string }): WaitlistMail {
  const subject = `Your invitation to ${PRODUCT_NAME}`;
  const invited = `A spot in the ${PRODUCT_NAME} beta is yours. The link below opens registration for this address.`;
  const validity = `It works once, within ${INVITATION_DAYS} days:`;
  return mailMessage(
    subject,
    ["Hi,", "", invited, validity, "", input.link, "", IGNORE],
    [
      htmlParagraph("Hi,"),
      htmlParagraph(invited),
      htmlParagraph(validity),
      htmlButton(input.link, "Create my account"),
      htmlParagraph(IGNORE),
    ],
  );
}
