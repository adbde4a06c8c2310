import type { DB } from "~/infra/db.server";
import type { AuditEntry, AuditPage } from "~/features/audit/types";

/**
 * What was done to accounts and money, recorded in audit_log: who, what, to
 * whom, when. Bans, unbans and user creation (the admin), refunds (the admin,
 * or `stripe` for a refund Stripe reported: its dashboard, a lost dispute),
 * account erasure; the admin's Retry and Cancel of a job (which start or stop
 * transfers and refunds; the subject is the job, the detail its kind) and
 * waitlist invitations (the subject is the entry); a face verified that is
 * already another account's verified face (the subject is the account that
 * verified it, the detail names the other); a user's own password
 * change, email change (when the link is used) and ended sessions (one, or
 * every other); the admin's decisions on reports (the subject is the report)
 * and the suspension of a creator with too many upheld reports; the admin's decline of a
 * buyer's refund request (the subject is the request; an approval is the order's refund). Entries name people by id, never by address. Rows are only
 * ever added; the admin reads them newest first (GET /api/admin/audit, the
 * portal's Audit log).
 */
export type AuditAction =
  | "user.ban"
  | "user.unban"
  | "user.create"
  | "user.erase"
  | "user.password_change"
  | "user.email_change"
  | "user.session_revoke"
  | "user.sign_out_elsewhere"
  | "order.refund"
  | "order.refund_undone"
  | "job.retry"
  | "job.cancel"
  | "waitlist.invite"
  | "user.face_also_verified"
  | "report.remove"
  | "report.dismiss"
  | "report.suspend"
  | "refund_request.decline"
  | "follow.drop";

/** The actor of entries the payment provider reported rather than a person did. */
export const STRIPE_ACTOR = "stripe";

export async function recordAuditEntry(
  db: DB,
  entry: {
    actorId: string;
    action: AuditAction;
    subjectId: string;
    detail?: Record<string, unknown>;
    now: Date;
  },
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

export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_MAX_LIMIT = 200;

/** One page of the log, newest first; `before` is the id the previous page's nextCursor named. */
export async function listAuditEntries(
  db: DB,
  { before, limit }: { before?: number; limit: number },
): Promise<AuditPage> {
  let query = db
    .selectFrom("audit_log")
    .leftJoin("users", "users.id", "audit_log.actor_id")
    .select([
      "audit_log.id",
      "audit_log.actor_id",
      "users.email as actor_email",
      "audit_log.action",
      "audit_log.subject_id",
      "audit_log.detail",
      "audit_log.created_at",
    ])
    .orderBy("audit_log.id", "desc")
    .limit(limit + 1);
  if (before !== undefined) query = query.where("audit_log.id", "<", before);
  const rows = await query.execute();
  const entries: AuditEntry[] = rows.slice(0, limit).map((row) => ({
    id: row.id,
    actorId: row.actor_id,
    actorEmail: row.actor_email ?? null,
    action: row.action,
    subjectId: row.subject_id,
    detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : null,
    createdAt: row.created_at,
  }));
  return {
    entries,
    nextCursor: rows.length > limit ? String(entries[entries.length - 1].id) : null,
  };
}
