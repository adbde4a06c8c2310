import { sql } from "kysely";
import type { DB } from "~/infra/db.server";
import { MAIL_JOB } from "~/features/mail/mail-job.server";

/**
 * An account erasure (in its transaction): the messages to the person's
 * address are forgotten, sent or waiting (a waiting one is not sent: the
 * account is gone). A message a worker is sending at this very moment is
 * left to finish.
 */
export async function forgetMailTo(trx: DB, email: string): Promise<void> {
  const address = email.trim().toLowerCase();
  await trx
    .deleteFrom("jobs")
    .where("kind", "=", MAIL_JOB)
    .where("status", "!=", "running")
    .where(sql<boolean>`instr(lower(coalesce(json_extract(payload, '$.to'), '')), ${address}) > 0`)
    .execute();
}
