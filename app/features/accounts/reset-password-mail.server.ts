import { PRODUCT_NAME } from "~/lib/product";
import { RESET_LINK_MINUTES } from "~/features/accounts/password-reset.server";

/** The password reset message: a plain-text part and a simple HTML part, every value escaped. */

export interface ResetMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);

export function renderResetPasswordMail(input: { firstName: string; link: string }): ResetMail {
  const greeting = input.firstName.trim() ? `Hi ${input.firstName.trim()},` : "Hi,";
  const subject = `Reset your ${PRODUCT_NAME} password`;
  const asked = `Someone, hopefully you, asked to reset the password of your ${PRODUCT_NAME} account.`;
  const validity = `The link works once and is valid for ${RESET_LINK_MINUTES} minutes.`;
  const ignore = "If you did not ask for this, you can ignore this email: your password stays as it is.";
  const text = [
    greeting,
    "",
    asked,
    "Open this link to choose a new password:",
    "",
    input.link,
    "",
    validity,
    ignore,
    "",
    `${PRODUCT_NAME}`,
    "",
  ].join("\n");
  const html = [
    "<!doctype html>",
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5; color: #0f172a;">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(asked)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">Choose a new password</a></p>`,
    `<p>Or copy this address into your browser:<br>${escapeHtml(input.link)}</p>`,
    `<p>${escapeHtml(validity)}</p>`,
    `<p>${escapeHtml(ignore)}</p>`,
    `<p>${escapeHtml(PRODUCT_NAME)}</p>`,
    "</body></html>",
  ].join("\n");
  return { subject, text, html };
}
