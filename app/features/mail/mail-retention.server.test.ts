import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { parseConfig } from "~/infra/config.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import type { MailTransport } from "~/infra/mail/mail-transport.server";
import { MAIL_JOB, mailJobHandler } from "~/features/mail/mail-job.server";
import { purgeOldMailJobs, queueMail } from "~/features/mail/public.server";
import { selectWhere } from "#tests/setup/rows-where";

const DAY_MS = 24 * 60 * 60 * 1000;
const message = (to: string) => ({
  to,
  subject: "Your Selfie Studio receipt",
  text: "Thank you.",
  html: "<p>Thank you.</p>",
});

/** Runs the due mail jobs on a clock that says `at`, through a transport that sends, or refuses for good. */
async function sendAt(at: Date, refuse = false) {
  const transport: MailTransport = {
    id: "smtp",
    async send() {
      if (refuse) throw Object.assign(new Error("No such mailbox"), { responseCode: 550 });
      return { messageId: "<sent@example.com>" };
    },
  };
  await new JobWorker({
    db: getDb(),
    handlers: {
      [MAIL_JOB]: mailJobHandler({
        transport: () => transport,
        from: () => "studio@example.com",
        replyTo: () => "help@example.com",
      }),
    },
    concurrency: 1,
    backoff: { baseMs: 0, maxMs: 0 },
    clock: () => at,
    log: () => {},
  }).drain();
}

const mailRows = () =>
  selectWhere("jobs", ["payload", "status"], "kind", MAIL_JOB).then((rows) =>
    rows.map((row) => `${JSON.parse(row.payload).to} ${row.status}`).sort(),
  );

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

describe("MAIL_RETENTION_DAYS", () => {
  it("is 30 days unless set, a whole number of days", () => {
    const base = { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "mail-retention-")) };
    expect(parseConfig(base).MAIL_RETENTION_DAYS).toBe(30);
    expect(parseConfig({ ...base, MAIL_RETENTION_DAYS: "7" }).MAIL_RETENTION_DAYS).toBe(7);
    expect(() => parseConfig({ ...base, MAIL_RETENTION_DAYS: "0" })).toThrow(/MAIL_RETENTION_DAYS/);
    expect(() => parseConfig({ ...base, MAIL_RETENTION_DAYS: "1.5" })).toThrow(
      /MAIL_RETENTION_DAYS/,
    );
  });

  it("purges the rows of messages sent or given up on longer ago, and never a queued one", async () => {
    const start = new Date("2026-01-01T09:00:00.000Z");
    const db = getDb();
    await queueMail(db, { ...message("old@example.com"), now: start });
    await sendAt(start);
    await queueMail(db, { ...message("refused@example.com"), now: start });
    await sendAt(start, true);
    const later = new Date(start.getTime() + 20 * DAY_MS);
    await queueMail(db, { ...message("recent@example.com"), now: later });
    await sendAt(later);
    // Queued long ago and never sent (say, its worker was down): it stays.
    await queueMail(db, { ...message("waiting@example.com"), now: start });
    await db
      .updateTable("jobs")
      .set({ run_at: new Date(start.getTime() + 365 * DAY_MS).toISOString() })
      .where("status", "=", "queued")
      .execute();

    // 29 days after the first ones: nothing is old enough.
    expect(
      await purgeOldMailJobs(db, {
        retentionDays: 30,
        now: new Date(start.getTime() + 29 * DAY_MS),
      }),
    ).toBe(0);
    // 31 days after: the sent and the refused message of the first day go.
    expect(
      await purgeOldMailJobs(db, {
        retentionDays: 30,
        now: new Date(start.getTime() + 31 * DAY_MS),
      }),
    ).toBe(2);
    expect(await mailRows()).toEqual(["recent@example.com done", "waiting@example.com queued"]);
    // And the recent one 30 days after it was sent.
    await purgeOldMailJobs(db, { retentionDays: 30, now: new Date(later.getTime() + 31 * DAY_MS) });
    expect(await mailRows()).toEqual(["waiting@example.com queued"]);
  });
});
