import type { DB } from "~/infra/db.server";
import { deleteJobsMentioning } from "~/infra/jobs/job-queue.server";
import { MAIL_JOB } from "~/features/mail/mail-job.server";

/**
 * An account erasure (in its transaction): the messages to the person's
 * address are forgotten, sent or waiting (a waiting one is not sent: the
 * account is gone). A message a worker is sending at this very moment is
 * left to finish.
 */
export async function forgetMailTo(trx: DB, email: string): Promise<void> {
  await deleteJobsMentioning(trx, {
    kind: MAIL_JOB,
    field: "to",
    text: email.trim().toLowerCase(),
  });
}
