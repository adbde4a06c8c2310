import { escapeHtml } from "~/lib/html";
import { PRODUCT_NAME } from "~/lib/product";
import { htmlButton, htmlMessage } from "~/features/mail/message-layout";
import { INVITATION_DAYS } from "~/features/accounts/waitlist.server";

/**
 * The waitlist's two messages: the confirmation that an address joined, and
 * the admin's invitation with the link that opens registration for it.
 * Plain text and HTML, every value escaped.
 */

export interface WaitlistMail {
  subject: string;
  text: string;
  html: string;
}

const IGNORE = "If you did not ask for this, you can ignore this email.";

export function renderWaitlistJoinedMail(): WaitlistMail {
  const subject = `You're on the ${PRODUCT_NAME} waitlist`;
  const joined = `This address is on the ${PRODUCT_NAME} beta waitlist. Registration is closed while the beta is full; when a spot opens we'll email this address an invitation with a link to create your account.`;
  const nothing = "There is nothing else to do until then.";
  const text = ["Hi,", "", joined, nothing, "", IGNORE, "", PRODUCT_NAME, ""].join("\n");
  const html = htmlMessage(
    subject,
    [
      `<p>Hi,</p>`,
      `<p>${escapeHtml(joined)}</p>`,
      `<p>${escapeHtml(nothing)}</p>`,
      `<p>${escapeHtml(IGNORE)}</p>`,
    ].join("\n"),
  );
  return { subject, text, html };
}

export function renderInvitationMail(input: { link: string }): WaitlistMail {
  const subject = `Your invitation to ${PRODUCT_NAME}`;
  const invited = `A spot in the ${PRODUCT_NAME} beta is yours. The link below opens registration for this address.`;
  const validity = `It works once, within ${INVITATION_DAYS} days:`;
  const text = [
    "Hi,",
    "",
    invited,
    validity,
    "",
    input.link,
    "",
    IGNORE,
    "",
    PRODUCT_NAME,
    "",
  ].join("\n");
  const html = htmlMessage(
    subject,
    [
      `<p>Hi,</p>`,
      `<p>${escapeHtml(invited)}</p>`,
      `<p>${escapeHtml(validity)}</p>`,
      htmlButton(input.link, "Create my account"),
      `<p>${escapeHtml(IGNORE)}</p>`,
    ].join("\n"),
  );
  return { subject, text, html };
}
