import os from "node:os";
import sharp from "sharp";
import type { Config } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { jobHandlers } from "~/boot/job-kinds.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";

/**
 * The process's background worker, started once by boot() (never by tests or
 * operator scripts, which do not call boot). JOB_CONCURRENCY jobs run at once,
 * and sharp's thread pool per image is sized so those jobs together use about
 * as many threads as the machine has cores.
 */
const globalForWorker = globalThis as unknown as { __selfieStudioWorker?: JobWorker };

export function startJobWorker(
  config: Config,
  log: (line: string) => void = console.log,
): JobWorker {
  const existing = globalForWorker.__selfieStudioWorker;
  if (existing) return existing;
  const cores =
    typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  sharp.concurrency(Math.max(1, Math.floor(cores / config.JOB_CONCURRENCY)));
  const worker = new JobWorker({
    db: getDb(),
    handlers: jobHandlers(),
    concurrency: config.JOB_CONCURRENCY,
    leaseMs: config.JOB_LEASE_SECONDS * 1000,
    log,
  });
  worker.start();
  globalForWorker.__selfieStudioWorker = worker;
  log(`Job worker started: ${config.JOB_CONCURRENCY} at a time (${worker.kinds.join(", ")}).`);
  return worker;
}

/** Stops the worker; unfinished jobs go back to the queue for the next start. */
export async function stopJobWorker(): Promise<void> {
  const worker = globalForWorker.__selfieStudioWorker;
  globalForWorker.__selfieStudioWorker = undefined;
  await worker?.stop();
}
