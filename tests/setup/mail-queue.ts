import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getDb } from "~/infra/db.server";
import { parseConfig, type Config } from "~/infra/config.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import { selectMailTransport } from "~/infra/mail/select-mail-transport.server";
import { MAIL_JOB, mailJobHandler } from "~/features/mail/mail-job.server";
import { outboxFiles, startSmtpServer, type ReceivedMail } from "#tests/setup/mail";
import { selectWhere } from "./rows-where";
import { onTestFinished } from "vitest";

/** Mail tests over the test database (vitest only; tests/setup/mail.ts is shared with Playwright). */

/** Runs every queued mail job into a fresh outbox and answers its .eml files. */
export async function deliverQueuedMail(): Promise<string[]> {
  const config = parseConfig({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "selfie-mail-")) });
  await drainMailJobs(config);
  return outboxFiles(config.outboxDir);
}

/** Sends every queued message through a real SMTP server (closed when the test finishes); answers what it received. */
export async function deliverOverSmtp(): Promise<ReceivedMail[]> {
  const smtp = await startSmtpServer();
  onTestFinished(() => smtp.close());
  await drainMailJobs(
    parseConfig({
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "selfie-mail-")),
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    }),
  );
  return smtp.received;
}

/** Runs every queued mail job through the transport `config` selects (an outbox, or SMTP_URL). */
export async function drainMailJobs(config: Config): Promise<void> {
  await new JobWorker({
    db: getDb(),
    handlers: {
      [MAIL_JOB]: mailJobHandler({
        transport: () => selectMailTransport(config, { log: () => {} }),
        from: () => config.MAIL_FROM,
        replyTo: () => config.SUPPORT_EMAIL,
      }),
    },
    concurrency: 1,
    backoff: { baseMs: 0, maxMs: 0 },
    log: () => {},
  }).drain();
}

/** The queued (not yet sent) messages to `email`. */
export const queuedMailTo = async (email: string) =>
  (await selectWhere("jobs", "payload", "kind", MAIL_JOB))
    .map(
      (row) =>
        JSON.parse(row.payload) as { to: string; subject: string; text: string; html: string },
    )
    .filter((payload) => payload.to === email);
