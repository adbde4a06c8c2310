import type { UserRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { forbidden, tooManyRequests, unauthorized } from "~/infra/errors.server";
import { waitText } from "~/infra/rate-limit.server";
import { findUserByEmail } from "~/features/accounts/users.server";
import { decoyHash, verifyPassword } from "~/features/accounts/passwords/passwords.server";
import {
  recordLoginFailure,
  releaseLoginAttempt,
  reserveLoginAttempt,
} from "~/features/accounts/sessions/login-throttle.server";

export const INVALID_LOGIN = "Invalid email or password";

/**
 * Checks an email and password and answers the account (401 for a wrong
 * pair, 403 for a suspended account). The attempt is reserved (and counted)
 * before the password is checked, per email and client address, per address,
 * and with growing delays per email (login-throttle.server.ts); a failure
 * stays counted, a success does not. An unknown email is checked against a
 * decoy hash, in about the same time.
 */
export async function signInWithPassword(
  db: DB,
  attempt: { email: string; password: string; clientIp: string; now: Date },
): Promise<UserRow> {
  const reserved = await reserveLoginAttempt(db, attempt.email, attempt.clientIp, attempt.now);
  if (!reserved.ok) {
    throw tooManyRequests(
      reserved.retryAfterSeconds,
      `Too many failed sign-in attempts. Try again in ${waitText(reserved.retryAfterSeconds)}.`,
    );
  }
  const { reservation } = reserved;
  let failed = false;
  try {
    const user = await findUserByEmail(db, attempt.email);
    const valid = await verifyPassword(
      attempt.password,
      user?.password_hash ?? (await decoyHash()),
    );
    if (!user || !valid) {
      failed = true;
      await recordLoginFailure(db, reservation, attempt.now);
      throw unauthorized(INVALID_LOGIN);
    }
    if (user.banned) throw forbidden("This account has been suspended");
    return user;
  } finally {
    if (!failed) await releaseLoginAttempt(db, reservation);
  }
}
