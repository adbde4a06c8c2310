import type { DB } from "~/infra/db.server";

/** What the admin did, recorded in audit_log: who, what, to whom, when. */
export type AdminAction = "user.ban" | "user.unban" | "user.create";

export async function recordAdminAction(
  db: DB,
  entry: { actorId: string; action: AdminAction; subjectId: string; detail?: Record<string, unknown>; now: Date },
) {
  await db
    .insertInto("audit_log")
    .values({
      actor_id: entry.actorId,
      action: entry.action,
      subject_id: entry.subjectId,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      created_at: entry.now.toISOString(),
    })
    .execute();
}
