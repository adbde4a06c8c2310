import type { DB } from "~/infra/db.server";
import { sha256 } from "~/infra/ids.server";
import { deleteJobsByField } from "~/infra/jobs/job-queue.server";
import { recipientAddressOf } from "~/infra/mail/mail-address.server";
import { removeOutboxMailTo } from "~/infra/mail/outbox-files.server";
import { MAIL_JOB } from "~/features/mail/mail-job.server";

/**
 * An account erasure (in its transaction): the messages to the person's
 * addresses (every address the account had) are forgotten, sent or waiting (a
 * waiting one is not sent: the account is gone). A message goes when its
 * recipient's address is one of them exactly (`Ann <ANN@example.com>` is
 * `ann@example.com`; `joann@example.com` is not). A message a worker is
 * sending at this very moment is left to finish.
 */
export async function forgetMailTo(trx: DB, emails: readonly string[]): Promise<void> {
  const addresses = new Set(emails.map(recipientAddressOf));
  await deleteJobsByField(trx, {
    kind: MAIL_JOB,
    field: "to",
    containing: [...addresses],
    matches: (to) => addresses.has(recipientAddressOf(to)),
  });
}

/**
 * What the erasure job is handed to find the person's messages in the outbox
 * by: the sha256 of each address, so the queued job holds no address itself.
 */
export function outboxRecipientKeys(emails: readonly string[]): string[] {
  return [...new Set(emails.map((email) => sha256(recipientAddressOf(email))))];
}

/**
 * The erasure job's mail step: removes the outbox's messages (DATA_DIR/outbox,
 * written while SMTP_URL was unset) to the addresses whose keys are given
 * (outboxRecipientKeys). Safe to run again.
 */
export async function forgetOutboxMailTo(
  outboxDir: string,
  recipientKeys: readonly string[],
): Promise<number> {
  if (recipientKeys.length === 0) return 0;
  const keys = new Set(recipientKeys);
  return removeOutboxMailTo(outboxDir, (address) => keys.has(sha256(address)));
}
