import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "~/infra/db.server";
import { backoffDelayMs, claimJob, enqueueJob } from "~/infra/jobs/job-queue.server";
import type { JobHandler } from "~/infra/jobs/job-worker.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import { rowWhere, selectWhere } from "#tests/setup/rows-where";

const KIND = "test-job";
const payloadSchema = z.object({ n: z.number() });
type Payload = z.infer<typeof payloadSchema>;

class PermanentError extends Error {
  readonly retryable = false;
}

/** A controllable clock. */
function fakeClock(start = "2026-11-22T10:00:00.000Z") {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function recordingHandler(run: (payload: Payload, attempt: number) => Promise<void>) {
  const failed: { payload: Payload; error: unknown }[] = [];
  const retried: { payload: Payload; retryAt: Date }[] = [];
  const handler: JobHandler<Payload> = {
    parse: (payload) => payloadSchema.parse(payload),
    run: (payload, context) => run(payload, context.attempt),
    onRetry: async (payload, _error, context) => {
      retried.push({ payload, retryAt: context.retryAt });
    },
    onFailed: async (payload, error) => {
      failed.push({ payload, error });
    },
  };
  return { handler, failed, retried };
}

function worker(
  handler: JobHandler<Payload>,
  options: { clock?: () => Date; concurrency?: number; leaseMs?: number } = {},
) {
  return new JobWorker({
    db: getDb(),
    handlers: { [KIND]: handler },
    concurrency: options.concurrency ?? 2,
    leaseMs: options.leaseMs ?? 60_000,
    backoff: { baseMs: 5000, maxMs: 60_000 },
    clock: options.clock,
    random: () => 1, // no jitter: exact delays
    log: () => {},
  });
}

const jobRow = (id: string) => rowWhere("jobs", "*", "id", id);

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

/** `token`'s claim of a due job of KIND's, leased for `leaseMs` from `now`. */
const claimAs = (token: string, leaseMs: number, now: Date) =>
  claimJob(getDb(), { kinds: [KIND], token, leaseMs, now });

describe("the job queue", () => {
  it("claims a due job once, with a lease, counting the attempt", async () => {
    const clock = fakeClock();
    const id = await enqueueJob(getDb(), { kind: KIND, payload: { n: 1 }, now: clock.now() });
    const first = await claimAs("a", 30_000, clock.now());
    const second = await claimAs("b", 30_000, clock.now());
    expect(first?.id).toBe(id);
    expect(first?.status).toBe("running");
    expect(first?.attempts).toBe(1);
    expect(first?.locked_by).toBe("a");
    expect(first?.locked_until).toBe("2026-11-22T10:00:30.000Z");
    expect(second).toBeNull();
  });

  it("does not hand out a job before its time or of another kind", async () => {
    const clock = fakeClock();
    await enqueueJob(getDb(), {
      kind: KIND,
      payload: {},
      now: clock.now(),
      runAt: new Date(clock.now().getTime() + 1000),
    });
    await enqueueJob(getDb(), { kind: "other", payload: {}, now: clock.now() });
    expect(await claimAs("a", 1000, clock.now())).toBeNull();
    clock.advance(1000);
    expect(await claimAs("a", 1000, clock.now())).not.toBeNull();
  });

  it("backs off exponentially, capped, with jitter between half and all of the delay", () => {
    const options = { baseMs: 5000, maxMs: 60_000, random: () => 1 };
    expect([1, 2, 3, 4, 5, 6].map((attempt) => backoffDelayMs(attempt, options))).toEqual([
      5000, 10_000, 20_000, 40_000, 60_000, 60_000,
    ]);
    expect(backoffDelayMs(2, { ...options, random: () => 0 })).toBe(5000);
  });
});

describe("the job worker", () => {
  it("reclaims a job whose worker died (lease expired) and finishes it", async () => {
    const clock = fakeClock();
    const id = await enqueueJob(getDb(), { kind: KIND, payload: { n: 7 }, now: clock.now() });
    // A process claimed it and then died: the row stays 'running' with its lease.
    const dead = await claimAs("dead-process", 60_000, clock.now());
    expect(dead?.status).toBe("running");

    const seen: { n: number; attempt: number }[] = [];
    const { handler } = recordingHandler(async (payload, attempt) => {
      seen.push({ n: payload.n, attempt });
    });
    const fresh = worker(handler, { clock: clock.now });
    await fresh.drain();
    expect(seen).toEqual([]); // the lease still holds: nobody else may take it

    clock.advance(60_001);
    await fresh.drain();
    expect(seen).toEqual([{ n: 7, attempt: 2 }]);
    const row = await jobRow(id);
    expect(row.status).toBe("done");
    expect(row.attempts).toBe(2);
    expect(row.locked_by).toBeNull();
  });

  it("retries errors that may pass with exponential backoff, then succeeds", async () => {
    const clock = fakeClock();
    const id = await enqueueJob(getDb(), {
      kind: KIND,
      payload: { n: 1 },
      now: clock.now(),
      maxAttempts: 3,
    });
    const attempts: number[] = [];
    const { handler, retried, failed } = recordingHandler(async (_payload, attempt) => {
      attempts.push(attempt);
      if (attempt < 3) throw new Error("flaky network");
    });
    const w = worker(handler, { clock: clock.now });

    await w.drain();
    expect(attempts).toEqual([1]);
    let row = await jobRow(id);
    expect(row.status).toBe("queued");
    expect(row.last_error).toBe("flaky network");
    expect(row.run_at).toBe("2026-11-22T10:00:05.000Z"); // base delay

    clock.advance(4999);
    await w.drain();
    expect(attempts).toEqual([1]); // not due yet

    clock.advance(1);
    await w.drain();
    expect(attempts).toEqual([1, 2]);
    row = await jobRow(id);
    expect(row.run_at).toBe("2026-11-22T10:00:15.000Z"); // twice the base after the second failure

    clock.advance(10_000);
    await w.drain();
    expect(attempts).toEqual([1, 2, 3]);
    row = await jobRow(id);
    expect(row.status).toBe("done");
    expect(retried.map((r) => r.retryAt.toISOString())).toEqual([
      "2026-11-22T10:00:05.000Z",
      "2026-11-22T10:00:15.000Z",
    ]);
    expect(failed).toEqual([]);
  });

  it("fails for good when the attempts run out, and reports it once", async () => {
    const clock = fakeClock();
    const id = await enqueueJob(getDb(), {
      kind: KIND,
      payload: { n: 2 },
      now: clock.now(),
      maxAttempts: 2,
    });
    const { handler, failed } = recordingHandler(async () => {
      throw new Error("still broken");
    });
    const w = worker(handler, { clock: clock.now });
    await w.drain();
    clock.advance(5000);
    await w.drain();
    clock.advance(600_000);
    await w.drain();
    const row = await jobRow(id);
    expect(row.status).toBe("failed");
    expect(row.attempts).toBe(2);
    expect(failed).toHaveLength(1);
    expect((failed[0].error as Error).message).toBe("still broken");
  });

  it("does not retry an error that says it will not pass", async () => {
    const clock = fakeClock();
    const id = await enqueueJob(getDb(), { kind: KIND, payload: { n: 3 }, now: clock.now() });
    const { handler, failed, retried } = recordingHandler(async () => {
      throw new PermanentError("model refused");
    });
    await worker(handler, { clock: clock.now }).drain();
    const row = await jobRow(id);
    expect(row.status).toBe("failed");
    expect(row.attempts).toBe(1);
    expect(row.last_error).toBe("model refused");
    expect(failed).toHaveLength(1);
    expect(retried).toHaveLength(0);
  });

  it("fails a job whose last allowed attempt died with its worker", async () => {
    const clock = fakeClock();
    const id = await enqueueJob(getDb(), {
      kind: KIND,
      payload: { n: 4 },
      now: clock.now(),
      maxAttempts: 1,
    });
    await claimAs("dead", 1000, clock.now());
    const { handler, failed } = recordingHandler(async () => {
      throw new Error("must not run again");
    });
    clock.advance(1001);
    await worker(handler, { clock: clock.now }).drain();
    expect((await jobRow(id)).status).toBe("failed");
    expect(failed.map((f) => f.payload)).toEqual([{ n: 4 }]);
  });

  it("fails a job with a payload its handler refuses, without running it", async () => {
    const clock = fakeClock();
    const id = await enqueueJob(getDb(), {
      kind: KIND,
      payload: { n: "not a number" },
      now: clock.now(),
    });
    let ran = false;
    const { handler } = recordingHandler(async () => {
      ran = true;
    });
    await worker(handler, { clock: clock.now }).drain();
    expect(ran).toBe(false);
    const row = await jobRow(id);
    expect(row.status).toBe("failed");
    expect(row.last_error).toMatch(/^Invalid payload/);
  });

  it("runs at most `concurrency` jobs at once", async () => {
    const clock = fakeClock();
    for (let n = 0; n < 6; n++)
      await enqueueJob(getDb(), { kind: KIND, payload: { n }, now: clock.now() });
    const gates = Array.from({ length: 6 }, deferred);
    let running = 0;
    let most = 0;
    const { handler } = recordingHandler(async (payload) => {
      running += 1;
      most = Math.max(most, running);
      await gates[payload.n].promise;
      running -= 1;
    });
    const w = worker(handler, { clock: clock.now, concurrency: 2 });
    expect(await w.tick()).toBe(2);
    expect(await w.tick()).toBe(0); // no free slot
    expect(w.activeCount).toBe(2);
    const runningRows = await selectWhere("jobs", "id", "status", "running");
    expect(runningRows).toHaveLength(2);

    const finished = w.drain();
    for (const gate of gates) {
      gate.resolve();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await finished;
    expect(most).toBe(2);
    const done = await selectWhere("jobs", "id", "status", "done");
    expect(done).toHaveLength(6);
  });

  it("cannot complete a job another worker took over after its lease ran out", async () => {
    const clock = fakeClock();
    const id = await enqueueJob(getDb(), { kind: KIND, payload: { n: 5 }, now: clock.now() });
    const gate = deferred();
    const runs: string[] = [];
    const slow = recordingHandler(async () => {
      runs.push("slow");
      await gate.promise;
    });
    const quick = recordingHandler(async () => {
      runs.push("quick");
    });
    const first = worker(slow.handler, { clock: clock.now, leaseMs: 1000 });
    await first.tick();
    clock.advance(1001); // the first worker's lease ran out (e.g. it hung)
    const second = worker(quick.handler, { clock: clock.now, leaseMs: 1000 });
    await second.drain();
    expect((await jobRow(id)).status).toBe("done");

    gate.resolve();
    await first.drain();
    const row = await jobRow(id);
    expect(row.status).toBe("done");
    expect(row.attempts).toBe(2);
    expect(runs).toEqual(["slow", "quick"]);
  });

  it("renews the lease while a job runs, so nobody takes a healthy job", async () => {
    const id = await enqueueJob(getDb(), { kind: KIND, payload: { n: 6 }, now: new Date() });
    const gate = deferred();
    const { handler } = recordingHandler(() => gate.promise);
    const w = worker(handler, { leaseMs: 150 });
    await w.tick();
    const before = (await jobRow(id)).locked_until!;
    await new Promise((resolve) => setTimeout(resolve, 400)); // several renewals (every leaseMs / 3)
    const after = (await jobRow(id)).locked_until!;
    expect(after > before).toBe(true);
    const other = await claimAs("other", 150, new Date());
    expect(other).toBeNull();
    gate.resolve();
    await w.drain();
    expect((await jobRow(id)).status).toBe("done");
  });

  it("hands running jobs back to the queue on stop, without counting the attempt", async () => {
    const id = await enqueueJob(getDb(), { kind: KIND, payload: { n: 8 }, now: new Date() });
    const { handler } = recordingHandler(() => new Promise(() => {})); // never finishes on its own
    const w = worker(handler);
    await w.tick();
    expect((await jobRow(id)).status).toBe("running");
    await w.stop();
    const row = await jobRow(id);
    expect(row.status).toBe("queued");
    expect(row.attempts).toBe(0);
    expect(row.locked_by).toBeNull();
  });

  it("starts on its own and picks up a job as soon as it is announced", async () => {
    const { announceJobs } = await import("~/infra/jobs/job-queue.server");
    const done = deferred();
    const { handler } = recordingHandler(async () => done.resolve());
    const w = new JobWorker({
      db: getDb(),
      handlers: { [KIND]: handler },
      concurrency: 1,
      pollMs: 60_000, // only the announcement can wake it in time
      log: () => {},
    });
    w.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await enqueueJob(getDb(), { kind: KIND, payload: { n: 9 }, now: new Date() });
      announceJobs();
      await done.promise;
    } finally {
      await w.stop();
    }
  });
});
