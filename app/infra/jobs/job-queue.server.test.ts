import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import {
  claimJob,
  completeJob,
  deleteJobsByField,
  enqueueJob,
} from "~/infra/jobs/job-queue.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import { createTestUser } from "#tests/setup/accounts";
import { rowWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const KIND = "fairness-test";
const JOB_CONCURRENCY = 2;

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

/** `count` jobs of `owner`, each a millisecond after the one before, from `start`. */
async function enqueueMany(owner: string, count: number, start: number) {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    ids.push(
      await enqueueJob(getDb(), {
        kind: KIND,
        payload: { owner, n },
        now: new Date(start + n),
        userId: owner,
      }),
    );
  }
  return ids;
}

const claim = (token: string, now: Date) =>
  claimJob(getDb(), { kinds: [KIND], token, leaseMs: 60_000, now });

describe("claiming between creators", () => {
  it("records the owner of a job", async () => {
    const { user } = await createTestUser();
    const [id] = await enqueueMany(user.id, 1, Date.parse("2026-11-24T10:00:00.000Z"));
    const row = await rowWhere("jobs", "*", "id", id);
    expect(row.user_id).toBe(user.id);
    expect(row.claimed_at).toBeNull();
  });

  it("takes a second creator's single job within the first JOB_CONCURRENCY + 1 claims, behind 20 of the first's", async () => {
    const a = (await createTestUser()).user.id;
    const b = (await createTestUser()).user.id;
    const start = Date.parse("2026-11-24T10:00:00.000Z");
    await enqueueMany(a, 20, start);
    const [bJob] = await enqueueMany(b, 1, start + 100);
    const now = new Date(start + 1000);

    const claimed: string[] = [];
    for (let n = 0; n < JOB_CONCURRENCY + 1; n++)
      claimed.push((await claim(`worker-${n}`, now))!.id);
    expect(claimed).toContain(bJob);
  });

  it("takes turns even when each job finishes before the next claim (one at a time)", async () => {
    const a = (await createTestUser()).user.id;
    const b = (await createTestUser()).user.id;
    const start = Date.parse("2026-11-24T10:00:00.000Z");
    const aJobs = await enqueueMany(a, 20, start);
    const [bJob] = await enqueueMany(b, 1, start + 100);

    const order: string[] = [];
    for (let n = 0; n < 3; n++) {
      const now = new Date(start + 1000 + n * 10);
      const job = (await claim("only-worker", now))!;
      order.push(job.id);
      expect(await completeJob(getDb(), job.id, "only-worker", new Date(now.getTime() + 5))).toBe(
        true,
      );
    }
    expect(order).toEqual([aJobs[0], bJob, aJobs[1]]);
  });

  it("keeps first-in first-out order within one owner and for jobs of nobody", async () => {
    const start = Date.parse("2026-11-24T10:00:00.000Z");
    const ids: string[] = [];
    for (let n = 0; n < 4; n++)
      ids.push(await enqueueJob(getDb(), { kind: KIND, payload: { n }, now: new Date(start + n) }));
    const claimed: string[] = [];
    for (let n = 0; n < 4; n++) {
      const now = new Date(start + 1000 + n);
      const job = (await claim("w", now))!;
      claimed.push(job.id);
      await completeJob(getDb(), job.id, "w", now);
    }
    expect(claimed).toEqual(ids);
  });

  it("a worker running JOB_CONCURRENCY jobs starts the second creator's job among its first JOB_CONCURRENCY + 1", async () => {
    const a = (await createTestUser()).user.id;
    const b = (await createTestUser()).user.id;
    const start = Date.now() - 60_000;
    await enqueueMany(a, 20, start);
    await enqueueMany(b, 1, start + 100);

    const started: string[] = [];
    const worker = new JobWorker({
      db: getDb(),
      handlers: {
        [KIND]: {
          parse: (payload) => payload as { owner: string; n: number },
          run: async (payload: { owner: string; n: number }) => {
            started.push(payload.owner);
          },
        },
      },
      concurrency: JOB_CONCURRENCY,
      log: () => {},
    });
    await worker.drain();
    expect(started).toHaveLength(21);
    expect(started.slice(0, JOB_CONCURRENCY + 1)).toContain(b);
  });
});

describe("deleting the jobs by a payload field", () => {
  it("reads those whose field contains a given text (any case, wildcards taken literally), deletes those the caller accepts, and leaves a running one", async () => {
    const now = new Date("2026-11-24T10:00:00.000Z");
    const job = (to: string, kind = KIND) =>
      enqueueJob(getDb(), { kind, payload: { to, subject: "x" }, now });
    const exact = await job("Ann_Lee%@Example.com");
    const inside = await job("copy-ann_lee%@example.com");
    const wildcard = await job("annXlee@example.com");
    const other = await job("someone@example.com");
    const otherKind = await job("ann_lee%@example.com", "other-kind");
    const running = await job("ann_lee%@example.com");
    const noField = await enqueueJob(getDb(), { kind: KIND, payload: { n: 1 }, now });
    await updateWhere("jobs", { status: "running" }, "id", running);

    const seen: string[] = [];
    const deleted = await deleteJobsByField(getDb(), {
      kind: KIND,
      field: "to",
      containing: ["ann_lee%@example.com"],
      matches: (to) => {
        seen.push(to);
        return to.toLowerCase() === "ann_lee%@example.com";
      },
    });

    expect(deleted).toBe(1);
    expect(seen.sort()).toEqual(["Ann_Lee%@Example.com", "copy-ann_lee%@example.com"]);
    const left = (await getDb().selectFrom("jobs").select("id").execute()).map((row) => row.id);
    expect(left).not.toContain(exact);
    expect(left).toEqual(
      expect.arrayContaining([inside, wildcard, other, otherKind, running, noField]),
    );
    expect(left).toHaveLength(6);
  });
});
