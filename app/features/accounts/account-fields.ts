import { z } from "zod";
import { emailAddressField } from "~/lib/email-field";

/** The fields several of the account's forms share, with the same rules and messages everywhere. */

/** An email address as typed: trimmed and lower-cased. */
export const emailAddress = emailAddressField({
  missing: "Invalid email address",
  invalid: "Invalid email address",
  lowerCase: true,
});

/** The current password, asked again before a change to the account. */
export const currentPassword = z
  .string({ error: "Enter your current password" })
  .min(1, "Enter your current password")
  .max(200, "Password must be at most 200 characters");

/**
 * The token of a mailed link: `missing` when the link came without one,
 * `invalid` when it is longer than any token we mail (`max` characters).
 */
export const mailedLinkToken = (messages: { missing: string; invalid: string }, max = 500) =>
  z.string({ error: messages.missing }).trim().min(1, messages.missing).max(max, messages.invalid);

/** The id of one row a button acts on: `sayWhich` when none is sent, `noSuch` when it cannot be one. */
export const rowId = (messages: { sayWhich: string; noSuch: string }) =>
  z.string({ error: messages.sayWhich }).trim().min(1, messages.sayWhich).max(100, messages.noSuch);
