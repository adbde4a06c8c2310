import type { UserRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { badRequest } from "~/infra/errors.server";
import { COMMON_PASSWORD } from "~/lib/accounts";
import { hashPassword } from "~/features/accounts/passwords/passwords.server";
import { isCommonPassword } from "~/features/accounts/passwords/common-passwords.server";
import { checkCurrentPassword } from "~/features/accounts/passwords/current-password.server";
import { recordAuditEntry } from "~/features/audit/public.server";
import {
  type CallerCredentials,
  endOtherSessionsAndTokens,
} from "~/features/accounts/sessions/sessions.server";

export const WRONG_CURRENT_PASSWORD = "The current password is not correct";

/**
 * Changes a user's password: the new one follows the new-password rules, the
 * current one must be right (checkCurrentPassword: a wrong one counts toward
 * the sign-in limits of the account's email).
 * Then every other web session and API token of the user ends; the caller's
 * own (`caller`) keeps working; the audit log records the change. A refused
 * change changes nothing.
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
  await checkCurrentPassword(
    db,
    {
      email: user.email,
      passwordHash: user.password_hash,
      password: change.currentPassword,
      clientIp: change.clientIp,
      now: change.now,
    },
    { message: WRONG_CURRENT_PASSWORD, field: "currentPassword" },
  );
  const passwordHash = await hashPassword(change.newPassword);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: change.now.toISOString() })
      .where("id", "=", user.id)
      .execute();
    await endOtherSessionsAndTokens(trx, user.id, change.caller);
    await recordAuditEntry(trx, {
      actorId: user.id,
      action: "user.password_change",
      subjectId: user.id,
      now: change.now,
    });
  });
}
