import type { DB } from "~/infra/db.server";
import { deleteFinishedJobsBefore } from "~/infra/jobs/job-queue.server";
import { MAIL_JOB } from "~/features/mail/mail-job.server";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * MAIL_RETENTION_DAYS: a sent or given-up message's job row keeps whom it was
 * for and its subject (redactWhenFinished), which the admin's undelivered mail
 * shows; past the retention it goes. A message still queued or being sent is
 * never purged. Answers how many rows went. Run once a day (boot.server.ts).
 */
export async function purgeOldMailJobs(
  db: DB,
  { retentionDays, now }: { retentionDays: number; now: Date },
): Promise<number> {
  const before = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  return deleteFinishedJobsBefore(db, { kind: MAIL_JOB, before });
}
