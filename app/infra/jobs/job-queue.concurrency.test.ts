import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { getDb, openDatabase } from "~/infra/db.server";
import {
  claimJob,
  completeJob,
  enqueueJob,
  failJob,
  releaseJob,
  renewLease,
  retryJob,
} from "~/infra/jobs/job-queue.server";
import type { JobHandler } from "~/infra/jobs/job-worker.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import { rowWhere } from "#tests/setup/rows-where";

/**
 * The claim between processes, on PostgreSQL: each worker below has a Kysely
 * instance and a pool of its own, as a separate server process would. The
 * claim's FOR UPDATE SKIP LOCKED is what keeps two of them from taking the
 * same job.
 */

const KIND = "concurrency-test";
const JOBS = 1000;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

const processes: DB[] = [];
function openProcess(): DB {
  const db = openDatabase({ url: getConfig().DATABASE_URL!, poolSize: 4 });
  processes.push(db);
  return db;
}

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});
afterEach(async () => {
  await Promise.all(processes.splice(0).map((db) => db.destroy()));
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!onPostgres)("the job claim between processes (PostgreSQL)", () => {
  it(`runs each of ${JOBS} jobs exactly once across three workers; a killed worker's job is finished by another after its lease, and its late result is refused`, async () => {
    const start = new Date();
    for (let n = 0; n < JOBS; n++)
      await enqueueJob(getDb(), { kind: KIND, payload: { n }, now: start });

    // A worker that claims a job and dies: no heartbeat, no result, until after the lease.
    const killed = openProcess();
    const killedToken = "killed-worker-token";
    const dying = await claimJob(killed, {
      kinds: [KIND],
      token: killedToken,
      leaseMs: 1500,
      now: new Date(),
    });
    expect(dying).not.toBeNull();

    const runs = new Map<number, number>();
    const handler: JobHandler<{ n: number }> = {
      parse: (payload) => payload as { n: number },
      async run({ n }) {
        runs.set(n, (runs.get(n) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
      },
    };
    const workers = [0, 1, 2].map(
      () =>
        new JobWorker({
          db: openProcess(),
          handlers: { [KIND]: handler },
          concurrency: 4,
          leaseMs: 60_000,
          pollMs: 20,
          log: () => {},
        }),
    );
    for (const worker of workers) worker.start();
    try {
      await waitFor(async () => {
        const twice = [...runs].filter(([, count]) => count > 1);
        if (twice.length > 0) throw new Error(`jobs ran more than once: ${twice.length}`);
        const done = await getDb()
          .selectFrom("jobs")
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .where("status", "=", "done")
          .executeTakeFirstOrThrow();
        return done.count === JOBS;
      }, 120_000);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }

    expect(runs.size).toBe(JOBS);
    const twice = [...runs].filter(([, count]) => count !== 1);
    expect(twice).toEqual([]);
    const taken = await rowWhere("jobs", "*", "id", dying!.id);
    expect(taken).toMatchObject({ status: "done", attempts: 2, locked_by: null });
    const others = await getDb()
      .selectFrom("jobs")
      .select("attempts")
      .where("id", "!=", dying!.id)
      .execute();
    expect(others.every((row) => row.attempts === 1)).toBe(true);

    // The killed worker wakes up: every late change under its old lease is refused.
    const now = new Date();
    expect(await renewLease(killed, dying!.id, killedToken, 60_000, now)).toBe(false);
    expect(await completeJob(killed, dying!.id, killedToken, now)).toBe(false);
    expect(await failJob(killed, dying!.id, killedToken, { error: "late", now })).toBe(false);
    expect(await retryJob(killed, dying!.id, killedToken, { runAt: now, error: "late", now })).toBe(
      false,
    );
    expect(await releaseJob(killed, dying!.id, killedToken, now)).toBe(false);
    expect(await rowWhere("jobs", "*", "id", dying!.id)).toEqual(taken);
  }, 180_000);
});
