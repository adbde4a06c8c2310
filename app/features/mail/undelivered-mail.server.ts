import type { DB } from "~/infra/db.server";
import { MAIL_JOB } from "~/features/mail/mail-job.server";
import type { UndeliveredMail } from "~/features/mail/types";


/**
 * The messages that ended failed, newest first (at most `limit`): what the
 * admin portal shows so an operator notices a broken mail setup. A finished
 * mail job keeps only its recipient and subject (mail-job.server.ts).
 */
export async function undeliveredMail(db: DB, limit = 20): Promise<UndeliveredMail[]> {
  const rows = await db
    .selectFrom("jobs")
    .select(["id", "payload", "last_error", "attempts", "updated_at"])
    .where("kind", "=", MAIL_JOB)
    .where("status", "=", "failed")
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => {
    const kept = parseKept(row.payload);
    return {
      id: row.id,
      to: kept.to,
      subject: kept.subject,
      reason: row.last_error ?? "Unknown error",
      attempts: row.attempts,
      failedAt: row.updated_at,
    };
  });
}

function parseKept(payload: string): { to: string; subject: string } {
  try {
    const value = JSON.parse(payload) as { to?: unknown; subject?: unknown } | null;
    return {
      to: typeof value?.to === "string" ? value.to : "(unknown)",
      subject: typeof value?.subject === "string" ? value.subject : "(unknown)",
    };
  } catch {
    return { to: "(unknown)", subject: "(unknown)" };
  }
}
