import { z } from "zod";

export const ERASE_PASSWORD_REQUIRED = "Enter your password to delete your account";
export const ERASE_CONFIRMATION_REQUIRED = "Tick the box to confirm that you understand";

/** DELETE /api/account: the account's own password. */
export const eraseMyAccountSchema = z.object({
  password: z.string({ error: ERASE_PASSWORD_REQUIRED }).min(1, ERASE_PASSWORD_REQUIRED).max(200),
});

/** The Delete account form: the password and the "I understand" box (checked, without JavaScript too). */
export const eraseAccountFormSchema = eraseMyAccountSchema.extend({
  confirm: z.literal("on", { error: ERASE_CONFIRMATION_REQUIRED }),
});
