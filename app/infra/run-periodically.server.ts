import os from "node:os";
import type { DB } from "~/infra/db.server";
import { getDb } from "~/infra/db.server";
import { newId } from "~/infra/ids.server";
import { acquireLease, releaseLease, renewLease } from "~/infra/periodic-leases.server";

/**
 * Runs `task` once per `everyMs` across every process that asks for it: each
 * process looks every `checkEveryMs` (at most a minute) whether the task's
 * lease is free, and the one that takes it runs the task; the lease then
 * holds for `everyMs`, so nobody runs it again within the period. While a run
 * lasts, its lease is renewed (a run longer than its period is not started
 * twice). A process that dies mid-run leaves its lease to expire; one that
 * stops mid-run releases it, so another process runs the task at its next look.
 */

export interface PeriodicOptions {
  db?: DB;
  /** How often this process looks whether the task is due (default: the period, at most a minute). */
  checkEveryMs?: number;
  clock?: () => Date;
  log?: (line: string) => void;
}

export interface PeriodicRunner {
  readonly name: string;
  /** Looks now whether the task is due and runs it if this process takes its lease; resolves when that run ends. */
  checkNow(): Promise<void>;
  /** Stops looking; a run in progress releases its lease (the run itself finishes on its own). */
  stop(): Promise<void>;
}

/** This process, in every lease it holds (a run adds its own id). */
const PROCESS_HOLDER = `${os.hostname()}:${process.pid}`;
const runners = new Set<PeriodicRunner>();
/** The runners on the process's own database, by task name: a task is started once per process. */
const onProcessDb = new Map<string, PeriodicRunner>();

export function runPeriodically(
  name: string,
  everyMs: number,
  task: () => Promise<unknown>,
  options: PeriodicOptions = {},
): PeriodicRunner {
  // Asked twice in one process (a second boot): the task already runs here.
  const existing = options.db ? undefined : onProcessDb.get(name);
  if (existing) return existing;
  const db = () => options.db ?? getDb();
  const clock = options.clock ?? (() => new Date());
  const log = options.log ?? ((line: string) => console.error(line));
  const checkEveryMs = options.checkEveryMs ?? Math.min(everyMs, 60_000);
  let current: { holder: string; done: Promise<void> } | null = null;
  let stopped = false;

  const check = async () => {
    if (stopped || current) return;
    const holder = `${PROCESS_HOLDER}:${newId()}`;
    const claim = { name, holder, ttlMs: everyMs };
    if (!(await acquireLease(db(), { ...claim, now: clock() }))) return;
    const keep = setInterval(
      () =>
        void renewLease(db(), { ...claim, now: clock() }).catch((error) =>
          log(`${name}: could not renew its lease: ${describe(error)}`),
        ),
      Math.max(1000, Math.floor(everyMs / 2)),
    ).unref();
    const done = Promise.resolve()
      .then(task)
      .then(
        () => undefined,
        (error) => log(`${name}: ${describe(error)}`),
      )
      .finally(() => {
        clearInterval(keep);
        current = null;
      });
    current = { holder, done };
    await done;
  };
  const look = () =>
    void check().catch((error) => log(`${name}: could not take its lease: ${describe(error)}`));

  look();
  const timer = setInterval(look, checkEveryMs).unref();
  const runner: PeriodicRunner = {
    name,
    checkNow: check,
    async stop() {
      stopped = true;
      clearInterval(timer);
      runners.delete(runner);
      if (onProcessDb.get(name) === runner) onProcessDb.delete(name);
      if (current) {
        await releaseLease(db(), { name, holder: current.holder, now: clock() }).catch(() => {});
      }
    },
  };
  runners.add(runner);
  if (!options.db) onProcessDb.set(name, runner);
  return runner;
}

/** Stops every periodic task of this process (before it exits). */
export async function stopPeriodicTasks(): Promise<void> {
  await Promise.all([...runners].map((runner) => runner.stop()));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
