import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ZodError } from "zod";
import { getDb } from "~/infra/db.server";
import { getConfig, parseConfig } from "~/infra/config.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import type { MailMessage, MailTransport } from "~/infra/mail/mail-transport.server";
import { selectMailTransport } from "~/infra/mail/select-mail-transport.server";
import { MAIL_ATTEMPTS, MAIL_JOB, mailJobHandler } from "~/features/mail/mail-job.server";
import { queueMail } from "~/features/mail/public.server";
import { recipientTag } from "~/infra/mail/recipient-in-logs.server";
import { jobHandlers } from "~/boot/job-kinds.server";
import type { TestSmtpServer } from "#tests/setup/mail";
import { addressesOf, outboxFiles, readEml, startSmtpServer } from "#tests/setup/mail";
import { rowWhere } from "#tests/setup/rows-where";

const receipt = {
  to: "Ana Buyer <buyer@example.com>",
  subject: "Your Selfie Studio receipt",
  text: "Thank you. Order 42: $12.00.",
  html: "<p>Thank you. Order <b>42</b>: $12.00.</p>",
};

/** A worker over the test database that runs only mail jobs, retrying at once (no backoff wait). */
function mailWorker(
  transport: () => MailTransport,
  from = "Selfie Studio <studio@example.com>",
  replyTo = "help@example.com",
  log: (line: string) => void = () => {},
) {
  return new JobWorker({
    db: getDb(),
    handlers: {
      [MAIL_JOB]: mailJobHandler({ transport, from: () => from, replyTo: () => replyTo }),
    },
    concurrency: 1,
    backoff: { baseMs: 0, maxMs: 0 },
    log,
  });
}

const jobRow = (id: string) => rowWhere("jobs", "*", "id", id);
const configWith = (env: Record<string, string>) =>
  parseConfig({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "selfie-mail-")), ...env });

let server: TestSmtpServer | undefined;
beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("queueMail", () => {
  it("queues the rendered message as a durable mail.send job, without its sender", async () => {
    const now = new Date("2026-11-22T10:00:00.000Z");
    const id = await queueMail(getDb(), { ...receipt, now });
    const row = await jobRow(id);
    expect(row).toMatchObject({
      kind: MAIL_JOB,
      status: "queued",
      max_attempts: MAIL_ATTEMPTS,
      user_id: null,
      run_at: now.toISOString(),
    });
    expect(JSON.parse(row.payload)).toEqual(receipt);
  });

  it("queues with the caller's transaction: nothing is sent when it rolls back", async () => {
    await getDb()
      .transaction()
      .execute(async (trx) => {
        await queueMail(trx, { ...receipt, now: new Date() });
        throw new Error("the order was not written");
      })
      .catch(() => {});
    expect(await getDb().selectFrom("jobs").selectAll().execute()).toEqual([]);
  });

  it("refuses a message that could never be sent, before queueing anything", async () => {
    const now = new Date();
    for (const bad of [
      { to: "not an address" },
      { to: "a@example.com, b@example.com" },
      { subject: "Line one\r\nBcc: someone@example.com" },
      { text: "x".repeat(100_001) },
      { html: "" },
    ]) {
      await expect(queueMail(getDb(), { ...receipt, ...bad, now })).rejects.toBeInstanceOf(
        ZodError,
      );
    }
    expect(await getDb().selectFrom("jobs").selectAll().execute()).toEqual([]);
  });
});

describe("the mail.send job", () => {
  it("writes the message to the outbox when SMTP_URL is unset, from MAIL_FROM", async () => {
    const config = configWith({ PUBLIC_URL: "https://selfie.example" });
    const lines: string[] = [];
    const id = await queueMail(getDb(), { ...receipt, now: new Date() });

    await mailWorker(
      () => selectMailTransport(config, { log: (line) => lines.push(line) }),
      config.MAIL_FROM,
    ).drain();

    expect((await jobRow(id)).status).toBe("done");
    const files = outboxFiles(config.outboxDir);
    expect(files).toHaveLength(1);
    const parsed = await readEml(files[0]);
    expect(parsed.from?.value).toEqual([
      { name: "Selfie Studio", address: "no-reply@selfie.example" },
    ]);
    expect(addressesOf(parsed.to)).toEqual(["buyer@example.com"]);
    expect(parsed.subject).toBe(receipt.subject);
    expect(parsed.text?.trim()).toBe(receipt.text);
    expect(parsed.html).toBe(receipt.html);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(files[0]);
    // Whom it was for by a tag, never the address.
    expect(lines[0]).toContain(recipientTag(receipt.to));
    expect(lines[0].toLowerCase()).not.toContain("buyer@example.com");
    expect(lines[0]).toContain(receipt.subject);
  });

  it("delivers over SMTP when SMTP_URL is set", async () => {
    server = await startSmtpServer({ credentials: { user: "studio", pass: "secret" } });
    const config = configWith({
      SMTP_URL: `smtp://studio:secret@127.0.0.1:${server.port}`,
      MAIL_FROM: "Studio <hello@selfie.example>",
    });
    const id = await queueMail(getDb(), { ...receipt, now: new Date() });

    await mailWorker(() => selectMailTransport(config), config.MAIL_FROM).drain();
    const mail = await server.nextMail();

    expect((await jobRow(id)).status).toBe("done");
    expect(mail.envelope).toEqual({ from: "hello@selfie.example", to: ["buyer@example.com"] });
    expect(mail.parsed.subject).toBe(receipt.subject);
    expect(mail.parsed.html).toBe(receipt.html);
    expect(outboxFiles(config.outboxDir)).toEqual([]);
  });

  it("sets Reply-To to SUPPORT_EMAIL on a message over SMTP, the sender staying MAIL_FROM", async () => {
    server = await startSmtpServer();
    const config = configWith({
      SMTP_URL: `smtp://127.0.0.1:${server.port}`,
      MAIL_FROM: "Studio <no-reply@selfie.example>",
      SUPPORT_EMAIL: "help@selfie.example",
    });
    await queueMail(getDb(), { ...receipt, now: new Date() });

    await mailWorker(
      () => selectMailTransport(config),
      config.MAIL_FROM,
      config.SUPPORT_EMAIL,
    ).drain();
    const mail = await server.nextMail();

    expect(addressesOf(mail.parsed.replyTo)).toEqual(["help@selfie.example"]);
    expect(addressesOf(mail.parsed.from)).toEqual(["no-reply@selfie.example"]);
    expect(mail.envelope.from).toBe("no-reply@selfie.example");
  });

  it("the job the server registers sets Reply-To to SUPPORT_EMAIL (ADMIN_EMAIL without it) in the outbox", async () => {
    const config = getConfig();
    expect(config.SMTP_URL).toBeUndefined();
    await queueMail(getDb(), { ...receipt, now: new Date() });
    const before = outboxFiles(config.outboxDir);
    vi.spyOn(console, "log").mockImplementation(() => {});

    await new JobWorker({
      db: getDb(),
      handlers: { [MAIL_JOB]: jobHandlers()[MAIL_JOB] },
      concurrency: 1,
      backoff: { baseMs: 0, maxMs: 0 },
      log: () => {},
    }).drain();

    const written = outboxFiles(config.outboxDir).filter((file) => !before.includes(file));
    expect(written).toHaveLength(1);
    const parsed = await readEml(written[0]);
    expect(addressesOf(parsed.replyTo)).toEqual([config.SUPPORT_EMAIL]);
    expect(config.SUPPORT_EMAIL).toBe("admin@example.com");
  });

  it("tries a message that keeps failing a few times, then ends it failed with the reason", async () => {
    const tried: MailMessage[] = [];
    const failing: MailTransport = {
      id: "smtp",
      async send(message) {
        tried.push(message);
        throw new Error("connect ECONNREFUSED 127.0.0.1:25");
      },
    };
    const id = await queueMail(getDb(), { ...receipt, now: new Date() });

    await mailWorker(() => failing).drain();

    const row = await jobRow(id);
    expect(row.status).toBe("failed");
    expect(row.attempts).toBe(MAIL_ATTEMPTS);
    expect(row.last_error).toBe("connect ECONNREFUSED 127.0.0.1:25");
    expect(tried).toHaveLength(MAIL_ATTEMPTS);
    expect(tried[0].from).toBe("Selfie Studio <studio@example.com>");
  });

  it("keeps only the recipient and subject once a message is sent or given up on: its links leave the jobs table", async () => {
    const config = configWith({});
    const sent = await queueMail(getDb(), { ...receipt, now: new Date() });
    await mailWorker(() => selectMailTransport(config, { log: () => {} })).drain();
    const failing: MailTransport = {
      id: "smtp",
      async send() {
        throw new Error("connect ECONNREFUSED 127.0.0.1:25");
      },
    };
    const failed = await queueMail(getDb(), { ...receipt, now: new Date() });
    await mailWorker(() => failing).drain();

    const kept = JSON.stringify({ to: receipt.to, subject: receipt.subject });
    expect(await jobRow(sent)).toMatchObject({ status: "done", payload: kept });
    expect(await jobRow(failed)).toMatchObject({
      status: "failed",
      payload: kept,
      last_error: "connect ECONNREFUSED 127.0.0.1:25",
    });
  });

  it("logs a failing and a refused message by the recipient's tag, never the address", async () => {
    const lines: string[] = [];
    const quoting: MailTransport = {
      id: "smtp",
      async send() {
        throw new Error("451 4.7.1 <BUYER@example.com>: try again later (buyer@example.com)");
      },
    };
    await queueMail(getDb(), { ...receipt, now: new Date() });
    await mailWorker(
      () => quoting,
      undefined,
      undefined,
      (line) => lines.push(line),
    ).drain();

    server = await startSmtpServer({
      options: {
        onRcptTo(address, _session, callback) {
          callback(
            Object.assign(new Error(`<${address.address}>: Recipient address rejected`), {
              responseCode: 550,
            }),
          );
        },
      },
    });
    const config = configWith({ SMTP_URL: `smtp://127.0.0.1:${server.port}` });
    const refused = await queueMail(getDb(), { ...receipt, now: new Date() });
    await mailWorker(
      () => selectMailTransport(config),
      undefined,
      undefined,
      (line) => lines.push(line),
    ).drain();

    expect((await jobRow(refused)).status).toBe("failed");
    // Retries, and both final failures, each logged.
    expect(lines.filter((line) => line.includes("retrying"))).toHaveLength(MAIL_ATTEMPTS - 1);
    expect(lines.filter((line) => line.includes("failed for good"))).toHaveLength(2);
    for (const line of lines) {
      expect(line.toLowerCase()).not.toContain("buyer@example.com");
      expect(line).not.toContain("Ana Buyer");
    }
    expect(lines.some((line) => line.includes(recipientTag(receipt.to)))).toBe(true);
    expect(lines.join("\n")).toContain("Recipient address rejected");
  });

  it("ends at once when the mail server refuses the message for good", async () => {
    server = await startSmtpServer({
      options: {
        onRcptTo(_address, _session, callback) {
          callback(Object.assign(new Error("No such mailbox"), { responseCode: 550 }));
        },
      },
    });
    const config = configWith({ SMTP_URL: `smtp://127.0.0.1:${server.port}` });
    const id = await queueMail(getDb(), { ...receipt, now: new Date() });

    await mailWorker(() => selectMailTransport(config)).drain();

    const row = await jobRow(id);
    expect(row.status).toBe("failed");
    expect(row.attempts).toBe(1);
    expect(row.last_error).toMatch(/^SMTP: .*No such mailbox/);
  });
});
