import type { DB } from "~/infra/db.server";
import { MAIL_JOB } from "~/features/mail/mail-job.server";
import type { MailSetupAlert, UndeliveredMail } from "~/features/mail/types";
import { MAIL_SETUP_PREFIX, mailSetupProblemOf } from "~/infra/mail/mail-transport.server";

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
      problem: mailSetupProblemOf(row.last_error),
      attempts: row.attempts,
      failedAt: row.updated_at,
    };
  });
}

/**
 * The banner's news: the newest message refused because of the mail setup
 * (the sender or the login), unless a message went out after it (the setup
 * was fixed since). Null when mail is not known to be blocked.
 */
export async function mailSetupAlert(db: DB): Promise<MailSetupAlert | null> {
  const failures = await db
    .selectFrom("jobs")
    .select(["last_error", "updated_at"])
    .where("kind", "=", MAIL_JOB)
    .where("status", "=", "failed")
    .where((eb) =>
      eb.or([
        eb("last_error", "like", `${MAIL_SETUP_PREFIX.sender}%`),
        eb("last_error", "like", `${MAIL_SETUP_PREFIX.auth}%`),
      ]),
    )
    .orderBy("updated_at", "desc")
    .limit(1)
    .executeTakeFirst();
  const problem = mailSetupProblemOf(failures?.last_error);
  if (!failures || !problem) return null;
  const delivered = await db
    .selectFrom("jobs")
    .select("updated_at")
    .where("kind", "=", MAIL_JOB)
    .where("status", "=", "done")
    .where("updated_at", ">", failures.updated_at)
    .limit(1)
    .executeTakeFirst();
  if (delivered) return null;
  return { problem, reason: failures.last_error!, failedAt: failures.updated_at };
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
