import { z } from "zod";
import { holdsOnlyXmlText, nonXmlTextMessage } from "~/lib/xml-text";
import {
  currentPassword,
  emailAddress as email,
  mailedLinkToken,
  rowId,
} from "~/features/accounts/account-fields";
import {
  MIN_PASSWORD_LENGTH,
  NEW_PASSWORD_MIN_LENGTH,
  NEW_PASSWORD_TOO_SHORT,
} from "~/lib/accounts";

/** One schema per form, used by the browser (conform) and the server alike. */

const password = z
  .string({ error: "Password must be at least 6 characters" })
  .min(MIN_PASSWORD_LENGTH, "Password must be at least 6 characters")
  .max(200, "Password must be at most 200 characters");

/** A password being chosen; the server also refuses common ones (common-passwords.server.ts). */
const newPassword = z
  .string({ error: NEW_PASSWORD_TOO_SHORT })
  .min(NEW_PASSWORD_MIN_LENGTH, NEW_PASSWORD_TOO_SHORT)
  .max(200, "Password must be at most 200 characters");

export const loginSchema = z.object({
  email,
  password,
  redirectTo: z.string().max(2000).optional(),
});

export const registerSchema = z.object({
  firstName: z
    .string({ error: "First name is required" })
    .trim()
    .min(1, "First name is required")
    .max(100)
    .refine(holdsOnlyXmlText, nonXmlTextMessage("First name")),
  lastName: z
    .string({ error: "Last name is required" })
    .trim()
    .min(1, "Last name is required")
    .max(100)
    .refine(holdsOnlyXmlText, nonXmlTextMessage("Last name")),
  email,
  password: newPassword,
  redirectTo: z.string().max(2000).optional(),
});

export const forgotPasswordSchema = z.object({ email });

const resetToken = mailedLinkToken({
  missing: "The password reset link is missing its token. Ask for a new one.",
  invalid: "This password reset link is not valid. Ask for a new one.",
});

export const resetPasswordSchema = z.object({ token: resetToken, password: newPassword });

export const resetLinkSchema = z.object({ token: resetToken });

/** The token of a mailed link that creates an account. */
export const registrationLinkSchema = z.object({
  token: mailedLinkToken(
    {
      missing: "The link is missing its token. Register again to get a new one.",
      invalid: "This link to create your account is not valid. Register again to get a new one.",
    },
    4000,
  ),
});

/** The Register tab's waitlist form while registration is closed. */
export const waitlistJoinSchema = z.object({ email });

const invitationToken = mailedLinkToken({
  missing: "The invitation link is missing its token. Ask for a new invitation.",
  invalid: "This invitation link is not valid. Ask for a new invitation.",
});

/** An invitation's link, as the Register tab opens it. */
export const invitationLinkSchema = z.object({ invite: invitationToken });

/** Registering through an invitation: the address is the invitation's, so no email is typed. */
export const invitedRegisterSchema = z.object({
  invite: invitationToken,
  firstName: registerSchema.shape.firstName,
  lastName: registerSchema.shape.lastName,
  password: newPassword,
});

/** The admin's Invite button: one waitlist entry. */
export const waitlistEntrySchema = z.object({
  entryId: rowId({ sayWhich: "Say which waitlist entry", noSuch: "No such waitlist entry" }),
});

export type LoginInput = z.infer<typeof loginSchema>;
export type RegisterInput = z.infer<typeof registerSchema>;

/** The Security tab's password change: the current password, and a new one under the new-password rules. */
export const changePasswordSchema = z.object({
  currentPassword,
  newPassword,
});

/** One of the user's web sessions or API tokens, by the public id the sessions list shows. */
export const sessionIdSchema = z.object({
  id: rowId({ sayWhich: "Say which session or token", noSuch: "No such session or token" }),
});
