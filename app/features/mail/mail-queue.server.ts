import type { DB } from "~/infra/db.server";
import { enqueueJob } from "~/infra/jobs/job-queue.server";
import { sha256 } from "~/infra/ids.server";
import { MAIL_PER_RECIPIENT_RATE_LIMIT, throttleQuietly } from "~/infra/rate-limit.server";
import { parseMailbox } from "~/infra/mail/mail-address.server";
import type { MailPayload } from "~/features/mail/mail-job.server";
import { MAIL_ATTEMPTS, MAIL_JOB, mailPayload } from "~/features/mail/mail-job.server";

/**
 * Queuing mail: other features send mail only through queueMail (handed out by its public.server.ts).
 * Mail is never sent inside a request: it is a durable job (mail.send), so a
 * slow or unreachable mail server delays a message without failing the
 * operation that wrote it, and a restart loses nothing.
 */

export interface QueueMailInput {
  /** One mailbox: `buyer@example.com` or `Name <buyer@example.com>`. */
  to: string;
  /** One line. */
  subject: string;
  /** The rendered plain-text part. */
  text: string;
  /** The rendered HTML part. */
  html: string;
  /** List-Unsubscribe and List-Unsubscribe-Post, for a message someone can stop with one click. */
  headers?: MailPayload["headers"];
  now: Date;
}

/**
 * Queues one rendered message and answers its job id. The sender is added
 * when it is sent (MAIL_FROM). Throws a ZodError for a message that could
 * never be sent (not one recipient, a subject over one line, parts over
 * MAX_PART_CHARS), before anything is queued.
 *
 * Pass a transaction to queue the message together with the rows it tells
 * about (an order and its receipt): the mail goes only if they commit. After
 * the commit, call announceJobs() (app/infra/jobs/job-queue.server.ts) so this
 * process's worker sends it at once rather than at its next poll.
 *
 * The payload stays in the jobs table after the message is sent: put no
 * passwords or API keys in a message (a short-lived link is the way to hand
 * over access).
 */
export async function queueMail(db: DB, input: QueueMailInput): Promise<string> {
  const { now, ...message } = input;
  const payload: MailPayload = mailPayload.parse(message);
  return enqueueJob(db, { kind: MAIL_JOB, payload, now, maxAttempts: MAIL_ATTEMPTS, userId: null });
}

/**
 * Queues a message that a stranger can make us send by typing an address (a
 * receipt, a library link, a password-reset link): at most
 * MAIL_PER_RECIPIENT_RATE_LIMIT of these to one recipient, whatever the kind
 * and whoever asks. Past it nothing is queued and the answer is null; the
 * caller answers its own caller the same either way, so the limit tells
 * nothing about the address. Counted like the other public limits
 * (rate-limit.server.ts), in the caller's transaction when it counts in the database.
 */
export async function queueMailWithinRecipientLimit(
  db: DB,
  input: QueueMailInput,
): Promise<string | null> {
  const recipient = sha256((parseMailbox(input.to)?.address ?? input.to).trim().toLowerCase());
  if (!(await throttleQuietly({ db, now: input.now }, MAIL_PER_RECIPIENT_RATE_LIMIT, recipient)))
    return null;
  return queueMail(db, input);
}
