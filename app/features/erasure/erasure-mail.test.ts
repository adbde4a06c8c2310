import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getLocalFileStore } from "~/infra/file-store.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import { createOutboxTransport } from "~/infra/mail/outbox-transport.server";
import { MAIL_JOB, queueMail } from "~/features/mail/public.server";
import {
  confirmEmailChange,
  startEmailChange,
} from "~/features/accounts/profile/email-change.server";
import { findUserById } from "~/features/accounts/users.server";
import { beginErasure } from "~/features/erasure/erase-account.server";
import { ERASE_ACCOUNT_JOB, eraseAccountJobHandler } from "~/features/erasure/erasure-job.server";
import { createTestUser } from "#tests/setup/accounts";
import { payoutDeps } from "#tests/setup/payouts";
import { rowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";

/**
 * What an erasure forgets of the person's mail: the queued and sent messages
 * to every address the account had (exactly those addresses, not others that
 * merely contain one), and the outbox's files addressed to them.
 */

const NOW = new Date("2026-11-28T09:00:00.000Z");

let outboxDir: string;
beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
  outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), "erasure-outbox-"));
});

async function queueTo(to: string, subject = "Hello") {
  await queueMail(getDb(), { to, subject, text: "Hi", html: "<p>Hi</p>", now: NOW });
}

async function queuedRecipients(): Promise<string[]> {
  const rows = await selectWhere("jobs", "payload", "kind", MAIL_JOB);
  return rows.map((row) => (JSON.parse(row.payload) as { to: string }).to).sort();
}

async function runErasureJob() {
  await new JobWorker({
    db: getDb(),
    handlers: {
      [ERASE_ACCOUNT_JOB]: eraseAccountJobHandler({
        store: getLocalFileStore(),
        payouts: payoutDeps(),
        outboxDir,
        log: () => {},
      }),
    },
    concurrency: 1,
    backoff: { baseMs: 0, maxMs: 0 },
    log: () => {},
  }).drain();
}

async function writeToOutbox(to: string) {
  await createOutboxTransport({ dir: outboxDir, log: () => {} }).send({
    from: "Selfie Studio <studio@example.com>",
    to,
    subject: "Your receipt",
    text: "Thanks",
    html: "<p>Thanks</p>",
  });
}

describe("an erasure and the person's mail", () => {
  it("forgets the messages to the erased address exactly, and keeps others' whose address merely contains it", async () => {
    const { user } = await createTestUser({ email: "ann@example.com" });
    await queueTo("ann@example.com");
    await queueTo("Ann <ANN@Example.com>");
    await queueTo("joann@example.com");
    await queueTo("ann@example.community");
    await queueTo("mann@example.com.au");
    await queueTo('"ann@example.com" <someone.else@example.org>');

    await beginErasure(getDb(), { actorId: user.id, userId: user.id, now: NOW });

    expect(await queuedRecipients()).toEqual(
      [
        "joann@example.com",
        "ann@example.community",
        "mann@example.com.au",
        '"ann@example.com" <someone.else@example.org>',
      ].sort(),
    );
  });

  it("forgets the mail to every address the account had, queued or in the outbox, and nobody else's", async () => {
    const db = getDb();
    const { user } = await createTestUser({ email: "first.address@example.com" });
    await queueTo("first.address@example.com", "Welcome");
    await writeToOutbox("first.address@example.com");
    await writeToOutbox("Someone Else <bystander@example.com>");
    await writeToOutbox("first.address@example.com.other.example");

    // Two changes of address, each by its mailed link.
    const firstToken = await startEmailChange(db, user, "second.address@example.com", NOW);
    await confirmEmailChange(db, user, firstToken, NOW);
    const second = (await findUserById(db, user.id))!;
    await queueTo("second.address@example.com", "Your new address");
    await writeToOutbox("Second <second.address@example.com>");
    const secondToken = await startEmailChange(db, second, "third.address@example.com", NOW);
    await confirmEmailChange(db, second, secondToken, NOW);
    await queueTo("third.address@example.com", "Your newest address");
    await queueTo("bystander@example.com", "Not theirs");

    await beginErasure(db, { actorId: user.id, userId: user.id, now: NOW });
    expect(await queuedRecipients()).toEqual(["bystander@example.com"]);
    // No row keeps an earlier address either.
    expect(await rowsWhere("email_changes", "user_id", user.id)).toEqual([]);

    await runErasureJob();
    const left = fs
      .readdirSync(outboxDir)
      .map((name) => fs.readFileSync(path.join(outboxDir, name), "latin1"));
    expect(left).toHaveLength(2);
    expect(left.join("\n")).not.toMatch(/(first|second|third)\.address@example\.com\r\n/);
    expect(left.some((file) => file.includes("To: Someone Else <bystander@example.com>"))).toBe(
      true,
    );
    expect(left.some((file) => file.includes("To: first.address@example.com.other.example"))).toBe(
      true,
    );
    // The job keeps no trace of the addresses it looked for.
    const job = await rowWhere("jobs", ["status", "payload"], "kind", ERASE_ACCOUNT_JOB);
    expect(job.status).toBe("done");
    expect(job.payload).not.toMatch(/address|[0-9a-f]{64}/);
  });
});
