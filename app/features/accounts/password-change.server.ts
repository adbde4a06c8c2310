import type { UserRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { badRequest, tooManyRequests } from "~/infra/errors.server";
import { waitText } from "~/infra/rate-limit.server";
import { COMMON_PASSWORD } from "~/lib/accounts";
import { hashPassword, verifyPassword } from "~/features/accounts/passwords.server";
import { isCommonPassword } from "~/features/accounts/common-passwords.server";
import {
  recordLoginFailure,
  releaseLoginAttempt,
  reserveLoginAttempt,
} from "~/features/accounts/login-throttle.server";
import {
  type CallerCredentials,
  endOtherSessionsAndTokens,
} from "~/features/accounts/sessions.server";

export const WRONG_CURRENT_PASSWORD = "The current password is not correct";

/**
 * Changes a user's password: the new one follows the new-password rules, the
 * current one must be right (a wrong one counts toward the sign-in limits of
 * the account's email, so a stolen session cannot guess on without end).
 * Then every other web session and API token of the user ends; the caller's
 * own (`caller`) keeps working. A refused change changes nothing.
 */
export async function changeOwnPassword(
  db: DB,
  user: UserRow,
  change: {
    currentPassword: string;
    newPassword: string;
    caller: CallerCredentials;
    clientIp: string;
    now: Date;
  },
): Promise<void> {
  if (isCommonPassword(change.newPassword))
    throw badRequest(COMMON_PASSWORD, { newPassword: [COMMON_PASSWORD] });
  const reserved = await reserveLoginAttempt(db, user.email, change.clientIp, change.now);
  if (!reserved.ok) {
    throw tooManyRequests(
      reserved.retryAfterSeconds,
      `Too many wrong passwords. Try again in ${waitText(reserved.retryAfterSeconds)}.`,
    );
  }
  const { reservation } = reserved;
  let failed = false;
  try {
    if (!(await verifyPassword(change.currentPassword, user.password_hash))) {
      failed = true;
      await recordLoginFailure(db, reservation, change.now);
      throw badRequest(WRONG_CURRENT_PASSWORD, { currentPassword: [WRONG_CURRENT_PASSWORD] });
    }
  } finally {
    if (!failed) await releaseLoginAttempt(db, reservation);
  }
  const passwordHash = await hashPassword(change.newPassword);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: change.now.toISOString() })
      .where("id", "=", user.id)
      .execute();
    await endOtherSessionsAndTokens(trx, user.id, change.caller);
  });
}
