import { z } from "zod";
import type { JobHandler, JobRunContext } from "~/infra/jobs/job-worker.server";
import { parseMailbox } from "~/infra/mail/mail-address.server";
import type { MailTransport } from "~/infra/mail/mail-transport.server";
import { withoutRecipient } from "~/infra/mail/recipient-in-logs.server";

/**
 * The sending job: one queued message, sent through the configured transport
 * (SMTP, or the outbox when SMTP_URL is unset). The payload is the rendered
 * message itself, without its sender: `from` is MAIL_FROM and Reply-To is
 * SUPPORT_EMAIL at the time of sending (no-reply senders are common, and a
 * reply to a receipt or a reset should reach someone). A failed attempt is tried again with the queue's backoff; a message
 * that keeps failing, or that the mail server refuses for good (5xx), ends
 * `failed` with its reason in jobs.last_error.
 *
 * Delivery is at least once: a process that dies after the server took the
 * message but before the job was marked done sends it again after restart.
 */

export const MAIL_JOB = "mail.send";
/** Attempts per message (with the queue's backoff between them). */
export const MAIL_ATTEMPTS = 5;
/** The longest a subject line, or a text or HTML part, may be: the payload is a row in the jobs table. */
export const MAX_SUBJECT_CHARS = 300;
export const MAX_PART_CHARS = 100_000;

export const mailPayload = z
  .object({
    to: z
      .string()
      .trim()
      .max(320)
      .refine(
        (value) => parseMailbox(value) !== null,
        "must be one address, such as buyer@example.com",
      ),
    subject: z
      .string()
      .trim()
      .min(1)
      .max(MAX_SUBJECT_CHARS)
      .refine((value) => !/[\r\n]/.test(value), "must be one line"),
    text: z.string().min(1).max(MAX_PART_CHARS),
    html: z.string().min(1).max(MAX_PART_CHARS),
    /** The list headers of a message someone can stop (RFC 2369 and 8058): a follow's mail. */
    headers: z
      .object({
        "List-Unsubscribe": z
          .string()
          .max(2000)
          .regex(/^<https?:\/\/[^\s<>]+>$/, "must be one <https://…> address"),
        "List-Unsubscribe-Post": z.literal("List-Unsubscribe=One-Click"),
      })
      .strict()
      .optional(),
  })
  .strict();
export type MailPayload = z.infer<typeof mailPayload>;

export interface MailJobDeps {
  /** The transport to send with (chosen per message, so a changed configuration applies after a restart). */
  transport: () => MailTransport;
  /** The sender (MAIL_FROM). */
  from: () => string;
  /** Where replies go, on every message (SUPPORT_EMAIL). */
  replyTo: () => string;
  /** How long one attempt may take (default 2 minutes, above the SMTP transport's own timeouts). */
  timeoutMs?: number;
}

export async function runMailJob(
  deps: MailJobDeps,
  payload: MailPayload,
  context: JobRunContext,
): Promise<void> {
  await deps
    .transport()
    .send({ from: deps.from(), replyTo: deps.replyTo(), ...payload }, { signal: context.signal });
}

/** The job handler the worker registers for MAIL_JOB. */
export function mailJobHandler(deps: MailJobDeps): JobHandler<MailPayload> {
  return {
    parse: (payload) => mailPayload.parse(payload),
    run: (payload, context) => runMailJob(deps, payload, context),
    timeoutMs: deps.timeoutMs ?? 2 * 60_000,
    // A message may carry a reset or library link: once it is sent (or given
    // up on), the jobs table keeps only whom it was for and its subject.
    redactWhenFinished: ({ to, subject }) => ({ to, subject }),
    // A refusal often quotes the address: the worker's log lines carry the recipient's tag instead.
    forLog: ({ to }, text) => withoutRecipient(text, to),
  };
}
