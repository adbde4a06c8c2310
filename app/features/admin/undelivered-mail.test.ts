import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "~/infra/config.server";
import { selectMailTransport } from "~/infra/mail/select-mail-transport.server";
import type { TestSmtpServer } from "#tests/setup/mail";
import { startSmtpServer } from "#tests/setup/mail";
import { getDb } from "~/infra/db.server";
import { plainContext } from "~/infra/call-context.server";
import { HttpError } from "~/infra/errors.server";
import { invoke } from "~/infra/procedure.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import type { MailTransport } from "~/infra/mail/mail-transport.server";
import { MAIL_JOB, mailJobHandler } from "~/features/mail/mail-job.server";
import { queueMail } from "~/features/mail/public.server";
import {
  adminMailSetupAlert,
  adminUndeliveredMail,
} from "~/features/admin/procedures/stats-and-audit.server";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { testTies } from "#tests/setup/ties";

/** A worker whose mail server always refuses the connection, retrying at once. */
const brokenMailWorker = () => {
  const refusing: MailTransport = {
    id: "smtp",
    async send() {
      throw new Error("connect ECONNREFUSED 127.0.0.1:25");
    },
  };
  return new JobWorker({
    db: getDb(),
    handlers: {
      [MAIL_JOB]: mailJobHandler({
        transport: () => refusing,
        from: () => "Studio <studio@example.com>",
        replyTo: () => "help@example.com",
      }),
    },
    concurrency: 1,
    backoff: { baseMs: 0, maxMs: 0 },
    log: () => {},
  });
};

/** The one super admin, made once for the file. */
let adminMade: ReturnType<typeof createTestAdmin> | undefined;
const theAdmin = () => (adminMade ??= createTestAdmin());

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

describe("the admin's undelivered mail", () => {
  it("lists the messages the queue gave up on, with whom they were for and why, and nothing of their text", async () => {
    const { user: admin } = await theAdmin();
    const ctx = plainContext("http://localhost", { ties: testTies });
    expect(await invoke(adminUndeliveredMail, admin, {}, ctx)).toEqual([]);

    await queueMail(getDb(), {
      to: "buyer@example.com",
      subject: "Your Selfie Studio receipt",
      text: "Your library: http://localhost/library?token=secret-token",
      html: "<p>secret-token</p>",
      now: new Date(),
    });
    await brokenMailWorker().drain();

    const listed = await invoke(adminUndeliveredMail, admin, {}, ctx);
    expect(listed).toMatchObject([
      {
        to: "buyer@example.com",
        subject: "Your Selfie Studio receipt",
        reason: "connect ECONNREFUSED 127.0.0.1:25",
        attempts: 5,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain("secret-token");
  });

  it("is for the super admin only", async () => {
    const { user: creator } = await createTestUser();
    await expect(
      invoke(
        adminUndeliveredMail,
        creator,
        {},
        plainContext("http://localhost", { ties: testTies }),
      ),
    ).rejects.toSatisfy((error) => error instanceof HttpError && error.status === 403);
  });
});

describe("mail blocked by its setup", () => {
  let smtp: TestSmtpServer | undefined;
  afterEach(async () => {
    await smtp?.close();
    smtp = undefined;
  });

  const smtpWorker = (smtpUrl: string) =>
    new JobWorker({
      db: getDb(),
      handlers: {
        [MAIL_JOB]: mailJobHandler({
          transport: () =>
            selectMailTransport(
              parseConfig({
                DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "selfie-mail-")),
                SMTP_URL: smtpUrl,
              }),
            ),
          from: () => "Selfie Studio <no-reply@unverified.example>",
          replyTo: () => "help@example.com",
        }),
      },
      concurrency: 1,
      backoff: { baseMs: 0, maxMs: 0 },
      log: () => {},
    });
  const queueReceipt = () =>
    queueMail(getDb(), {
      to: "buyer@example.com",
      subject: "Your Selfie Studio receipt",
      text: "t",
      html: "<p>t</p>",
      now: new Date(),
    });

  it("a real SMTP server refusing the sender (553 not verified) is listed as a sender refusal and raises the banner, until mail goes out again", async () => {
    const { user: admin } = await theAdmin();
    const ctx = plainContext("http://localhost", { ties: testTies });
    let refuse = true;
    smtp = await startSmtpServer({
      options: {
        onMailFrom(address, _session, callback) {
          if (refuse) {
            callback(
              Object.assign(new Error(`5.7.1 Sender address <${address.address}> not verified`), {
                responseCode: 553,
              }),
            );
            return;
          }
          callback();
        },
      },
    });
    await queueReceipt();
    await smtpWorker(`smtp://127.0.0.1:${smtp.port}`).drain();

    const [listed] = await invoke(adminUndeliveredMail, admin, {}, ctx);
    // Refused for good: one attempt, not five.
    expect(listed).toMatchObject({ problem: "sender", attempts: 1 });
    expect(listed.reason).toMatch(
      /^The mail server refused the sender \(MAIL_FROM\): SMTP: .*553.*not verified/,
    );
    const alert = await invoke(adminMailSetupAlert, admin, {}, ctx);
    expect(alert).toMatchObject({ problem: "sender" });
    expect(alert!.reason).toContain("no-reply@unverified.example");

    // A recipient the server refuses (550 at RCPT TO) is that message's problem, not the setup's.
    await getDb().deleteFrom("jobs").execute();
    await smtp.close();
    smtp = await startSmtpServer({
      options: {
        onRcptTo(_address, _session, callback) {
          callback(Object.assign(new Error("5.1.1 No such mailbox"), { responseCode: 550 }));
        },
      },
    });
    await queueReceipt();
    await smtpWorker(`smtp://127.0.0.1:${smtp.port}`).drain();
    expect(await invoke(adminUndeliveredMail, admin, {}, ctx)).toMatchObject([{ problem: null }]);
    expect(await invoke(adminMailSetupAlert, admin, {}, ctx)).toBeNull();

    // Once the sender is fixed and a message goes out, the banner goes away (the failure stays listed).
    await getDb().deleteFrom("jobs").execute();
    await smtp.close();
    refuse = true;
    smtp = await startSmtpServer({
      options: {
        onMailFrom(_address, _session, callback) {
          if (refuse)
            callback(
              Object.assign(new Error("Email address is not verified."), { responseCode: 554 }),
            );
          else callback();
        },
      },
    });
    await queueReceipt();
    await smtpWorker(`smtp://127.0.0.1:${smtp.port}`).drain();
    expect(await invoke(adminMailSetupAlert, admin, {}, ctx)).toMatchObject({ problem: "sender" });
    refuse = false;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await queueReceipt();
    await smtpWorker(`smtp://127.0.0.1:${smtp.port}`).drain();
    expect(await invoke(adminMailSetupAlert, admin, {}, ctx)).toBeNull();
    expect(await invoke(adminUndeliveredMail, admin, {}, ctx)).toMatchObject([
      { problem: "sender" },
    ]);
  });

  it("a refused login (535) is listed as a login refusal and raises the banner", async () => {
    const { user: admin } = await theAdmin();
    const ctx = plainContext("http://localhost", { ties: testTies });
    smtp = await startSmtpServer({ credentials: { user: "studio", pass: "right" } });
    await queueReceipt();
    await smtpWorker(`smtp://studio:wrong@127.0.0.1:${smtp.port}`).drain();
    const [listed] = await invoke(adminUndeliveredMail, admin, {}, ctx);
    expect(listed).toMatchObject({ problem: "auth", attempts: 1 });
    expect(listed.reason).toMatch(
      /^The mail server refused the login \(SMTP_URL's user and password\): SMTP: .*535/,
    );
    expect(listed.reason).not.toContain("wrong");
    expect(await invoke(adminMailSetupAlert, admin, {}, ctx)).toMatchObject({ problem: "auth" });
  });
});
