import type { DB } from "~/server/db.server";
import type { AdminUser, UserStatusAction } from "~/lib/admin";
import { SUPER_ADMIN_ID } from "~/lib/accounts";
import { badRequest, notFound } from "~/server/errors.server";
import { revokeAllCredentials } from "./sessions.server";
import { recordAdminAction } from "./admin-audit.server";
import { findUserForAdmin } from "./admin-users.server";

/**
 * Bans or unbans a user in one transaction. A ban takes effect at once: every
 * web session and API token of the user is deleted, and since the marketplace
 * shows only listings of creators who are not banned, their listings leave it
 * (and come back on unban: nothing is withdrawn). Every call writes an audit row.
 * The super admin cannot be banned or unbanned.
 */
export async function setUserStatus(
  db: DB,
  { actorId, userId, action, now }: { actorId: string; userId: string; action: UserStatusAction; now: Date },
): Promise<AdminUser> {
  if (userId === SUPER_ADMIN_ID) {
    throw badRequest(`The super admin cannot be ${action === "ban" ? "banned" : "unbanned"}`);
  }
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("users")
      .set({ banned: action === "ban" ? 1 : 0, updated_at: now.toISOString() })
      .where("id", "=", userId)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw notFound("User not found");
    if (action === "ban") await revokeAllCredentials(trx, userId);
    await recordAdminAction(trx, { actorId, action: action === "ban" ? "user.ban" : "user.unban", subjectId: userId, now });
    const user = await findUserForAdmin(trx, userId);
    if (!user) throw notFound("User not found");
    return user;
  });
}
