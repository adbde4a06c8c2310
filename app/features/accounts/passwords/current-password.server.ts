import type { DB } from "~/infra/db.server";
import { badRequest, tooManyRequests } from "~/infra/errors.server";
import { waitText } from "~/infra/rate-limit.server";
import { verifyPassword } from "~/features/accounts/passwords/passwords.server";
import {
  recordLoginFailure,
  releaseLoginAttempt,
  reserveLoginAttempt,
} from "~/features/accounts/sessions/login-throttle.server";

/**
 * Checks a signed-in user's current password before something only its owner
 * may do (change the password or the email, erase the account). Every check
 * is a sign-in attempt of the account's email from the caller's address
 * (login-throttle.server.ts): reserved first (429 with the wait past the
 * limits), a wrong password stays counted, so a stolen session or token
 * cannot guess on without end. A wrong password is a 400 naming `field`.
 */
export async function checkCurrentPassword(
  db: DB,
  check: {
    /** The account's email and stored hash, read fresh by the caller. */
    email: string;
    passwordHash: string;
    password: string;
    clientIp: string;
    now: Date;
  },
  wrong: { message: string; field: string },
): Promise<void> {
  const reserved = await reserveLoginAttempt(db, check.email, check.clientIp, check.now);
  if (!reserved.ok) {
    throw tooManyRequests(
      reserved.retryAfterSeconds,
      `Too many wrong passwords. Try again in ${waitText(reserved.retryAfterSeconds)}.`,
    );
  }
  const { reservation } = reserved;
  let failed = false;
  try {
    if (!(await verifyPassword(check.password, check.passwordHash))) {
      failed = true;
      await recordLoginFailure(db, reservation, check.now);
      throw badRequest(wrong.message, { [wrong.field]: [wrong.message] });
    }
  } finally {
    if (!failed) await releaseLoginAttempt(db, reservation);
  }
}
