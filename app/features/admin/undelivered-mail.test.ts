import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { plainContext } from "~/infra/call-context.server";
import { HttpError } from "~/infra/errors.server";
import { invoke } from "~/infra/procedure.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import type { MailTransport } from "~/infra/mail/mail-transport.server";
import { MAIL_JOB, mailJobHandler } from "~/features/mail/mail-job.server";
import { queueMail } from "~/features/mail/procedures.server";
import { adminUndeliveredMail } from "~/features/admin/procedures.server";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";

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
    handlers: { [MAIL_JOB]: mailJobHandler({ transport: () => refusing, from: () => "Studio <studio@example.com>" }) },
    concurrency: 1,
    backoff: { baseMs: 0, maxMs: 0 },
    log: () => {},
  });
};

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

describe("the admin's undelivered mail", () => {
  it("lists the messages the queue gave up on, with whom they were for and why, and nothing of their text", async () => {
    const { user: admin } = await createTestAdmin();
    const ctx = plainContext("http://localhost");
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
      { to: "buyer@example.com", subject: "Your Selfie Studio receipt", reason: "connect ECONNREFUSED 127.0.0.1:25", attempts: 5 },
    ]);
    expect(JSON.stringify(listed)).not.toContain("secret-token");
  });

  it("is for the super admin only", async () => {
    const { user: creator } = await createTestUser();
    await expect(invoke(adminUndeliveredMail, creator, {}, plainContext("http://localhost"))).rejects.toSatisfy(
      (error) => error instanceof HttpError && error.status === 403,
    );
  });
});
