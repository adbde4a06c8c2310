import type { DB } from "~/infra/db.server";
import type { AdminUser, UserStatusAction } from "~/features/admin/types";
import { CANCELLED_BY_SUSPENSION, SUPER_ADMIN_ID } from "~/lib/accounts";
import { badRequest, conflict, notFound } from "~/infra/errors.server";
import { revokeAllCredentials } from "~/features/accounts/public.server";
import { setUserBanned } from "~/features/accounts/public.server";
import { cancelOpenStyles } from "~/features/studio/public.server";
import { cancelQueuedPublications } from "~/features/publishing/public.server";
import { cancelQueuedJobsOfOwner } from "~/infra/jobs/job-queue.server";
import { recordAuditEntry } from "~/features/audit/public.server";
import { findUserForAdmin } from "~/features/admin/users.server";
import {
  holdSharesOfBannedCreator,
  releaseSharesOfUnbannedCreator,
  type SalesScope,
} from "~/features/payouts/public.server";

/**
 * Calls off a user's waiting work: their queued jobs fail (the worker will not
 * take them), and their styles in progress and queued publications end
 * `failed` with CANCELLED_BY_SUSPENSION, so no screen waits for them. A job a
 * worker already holds sees the ban itself and does no work; a publication's
 * revision moves on, so such a job's outcome is not recorded over the cancel.
 */
export async function cancelQueuedWork(db: DB, userId: string, now: Date): Promise<void> {
  const reason = CANCELLED_BY_SUSPENSION;
  await cancelQueuedJobsOfOwner(db, { userId, reason, now });
  await cancelOpenStyles(db, { userId, reason, now });
  await cancelQueuedPublications(db, { userId, reason, now });
}

/**
 * Bans or unbans a user in one transaction. A ban takes effect at once: every
 * web session and API token of the user is deleted, their queued work is
 * called off (cancelQueuedWork), and since the marketplace shows only listings
 * of creators who are not banned, their listings leave it (and come back on
 * unban: nothing is withdrawn). Their owed shares are held, so no money goes
 * to them while banned; an unban releases the held shares of orders that are
 * not disputed and queues their transfers (the caller announces the jobs).
 * Every call writes an audit row.
 * The super admin cannot be banned or unbanned, nor can an erased account.
 */
export const ERASED_ACCOUNT_STATUS = "This account was erased: it cannot be banned or unbanned.";

export async function setUserStatus(
  db: DB,
  {
    actorId,
    userId,
    action,
    now,
    ...scope
  }: { actorId: string; userId: string; action: UserStatusAction; now: Date } & SalesScope,
): Promise<AdminUser> {
  if (userId === SUPER_ADMIN_ID) {
    throw badRequest(`The super admin cannot be ${action === "ban" ? "banned" : "unbanned"}`);
  }
  return db.transaction().execute(async (trx) => {
    // An erased account is a tombstone: nobody can sign in to it, and its money was settled when it was erased.
    const outcome = await setUserBanned(trx, { userId, banned: action === "ban", now });
    if (outcome === "erased") throw conflict(ERASED_ACCOUNT_STATUS);
    if (outcome === "not-found") throw notFound("User not found");
    if (action === "ban") {
      await revokeAllCredentials(trx, userId);
      await cancelQueuedWork(trx, userId, now);
      await holdSharesOfBannedCreator(trx, userId);
    } else {
      await releaseSharesOfUnbannedCreator(trx, userId, now);
    }
    await recordAuditEntry(trx, {
      actorId,
      action: action === "ban" ? "user.ban" : "user.unban",
      subjectId: userId,
      now,
    });
    const user = await findUserForAdmin(trx, userId, scope);
    if (!user) throw notFound("User not found");
    return user;
  });
}
