import type { JobRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { newSecretToken } from "~/infra/ids.server";
import { withLogContext, withoutLogContext } from "~/infra/log-context.server";
import { countJobFailure } from "~/infra/metrics.server";
import {
  backoffDelayMs,
  claimJob,
  completeJob,
  failAbandonedJobs,
  failJob,
  onJobEnqueued,
  releaseJob,
  renewLease,
  retryJob,
} from "~/infra/jobs/job-queue.server";

/**
 * A generic worker over the durable queue: a registry of job kinds and their
 * handlers, at most `concurrency` jobs at once in this process, leases renewed
 * while a job runs, retries with exponential backoff for errors that may pass,
 * and a clean stop that hands unfinished jobs back to the queue.
 */

export interface JobRunContext {
  db: DB;
  jobId: string;
  /** 1 for the first attempt. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the job times out, the worker stops, or the lease was lost. */
  signal: AbortSignal;
  now: () => Date;
}

export interface JobHandler<P = unknown> {
  /** Checks the stored payload (throwing fails the job for good). */
  parse(payload: unknown): P;
  run(payload: P, context: JobRunContext): Promise<void>;
  /** A failed attempt that will be tried again at `retryAt`. */
  onRetry?(payload: P, error: unknown, context: JobRunContext & { retryAt: Date }): Promise<void>;
  /** The job failed for good (no attempts left, or an error that will not pass). Called once. */
  onFailed?(
    payload: P,
    error: unknown,
    context: { db: DB; jobId: string; now: () => Date },
  ): Promise<void>;
  /** How long one attempt may take (default: the worker's). */
  timeoutMs?: number;
  /**
   * The payload holds a secret (a message with a reset or library link): once
   * the job is done, or failed for good, the stored payload is replaced by
   * what this returns (say, the recipient and subject of a message).
   */
  redactWhenFinished?(payload: P): unknown;
  /**
   * What the worker's log lines may say of an error of this job (given as
   * text): say, the message's recipient replaced by a tag. Default: the text.
   */
  forLog?(payload: P, text: string): string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JobHandlers = Record<string, JobHandler<any>>;

export interface JobWorkerOptions {
  db: DB;
  handlers: JobHandlers;
  concurrency: number;
  /** How long a claim holds before another worker may take the job over (default 60 s). */
  leaseMs?: number;
  /** How often to look for due jobs when nothing wakes the worker (default 1 s). */
  pollMs?: number;
  backoff?: { baseMs: number; maxMs: number };
  /** Default time limit of one attempt (default 5 minutes). */
  timeoutMs?: number;
  clock?: () => Date;
  random?: () => number;
  log?: (line: string) => void;
}

/** An error says whether trying again may help through a boolean `retryable`; anything else is retried. */
export function isRetryable(error: unknown): boolean {
  if (
    error &&
    typeof error === "object" &&
    "retryable" in error &&
    typeof error.retryable === "boolean"
  ) {
    return error.retryable;
  }
  return true;
}

export class JobTimeoutError extends Error {
  readonly retryable = true;
  constructor(ms: number) {
    super(`The job took longer than ${Math.round(ms / 1000)} s`);
    this.name = "JobTimeoutError";
  }
}

/** The job was called off (e.g. its creator was banned): it fails for good without being tried again. */
export class JobCancelledError extends Error {
  readonly retryable = false;
  constructor(message: string) {
    super(message);
    this.name = "JobCancelledError";
  }
}

class WorkerStoppingError extends Error {
  constructor() {
    super("The worker is stopping");
    this.name = "WorkerStoppingError";
  }
}

class LeaseLostError extends Error {
  constructor() {
    super("Another worker took this job over");
    this.name = "LeaseLostError";
  }
}

export class JobWorker {
  readonly token = newSecretToken();
  private readonly db: DB;
  private readonly handlers: JobHandlers;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly backoff: { baseMs: number; maxMs: number };
  private readonly timeoutMs: number;
  private readonly clock: () => Date;
  private readonly random: () => number;
  private readonly log: (line: string) => void;
  private readonly active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private unsubscribe: (() => void) | null = null;
  private running = false;
  private stopping = false;
  private ticking: Promise<number> | null = null;
  private tickAgain = false;

  constructor(options: JobWorkerOptions) {
    this.db = options.db;
    this.handlers = options.handlers;
    this.concurrency = Math.max(1, options.concurrency);
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1000;
    this.backoff = options.backoff ?? { baseMs: 5000, maxMs: 5 * 60_000 };
    this.timeoutMs = options.timeoutMs ?? 5 * 60_000;
    this.clock = options.clock ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.log = options.log ?? ((line) => console.log(line));
  }

  get kinds(): string[] {
    return Object.keys(this.handlers);
  }

  /** Jobs this worker is running right now. */
  get activeCount(): number {
    return this.active.size;
  }

  /** Polls for work until stop(); an enqueue in this process wakes it at once. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    this.unsubscribe = onJobEnqueued(() => this.wake());
    this.wake();
  }

  /** Stops claiming, aborts running jobs and hands them back to the queue. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const { controller } of this.active.values()) controller.abort(new WorkerStoppingError());
    await Promise.allSettled([...this.active.values()].map((job) => job.done));
    await this.ticking?.catch(() => {});
  }

  /** Claims due jobs up to the free slots and starts them. Answers how many it started. */
  tick(): Promise<number> {
    if (this.ticking) {
      this.tickAgain = true;
      return this.ticking;
    }
    this.ticking = this.claimAndStart().finally(() => {
      this.ticking = null;
      if (this.tickAgain) {
        this.tickAgain = false;
        this.wake();
      }
    });
    return this.ticking;
  }

  /** Runs until no job is due and none is running (tests and scripts). */
  async drain(): Promise<void> {
    for (;;) {
      await this.tick();
      if (this.active.size === 0) {
        if ((await this.tick()) === 0 && this.active.size === 0) return;
        continue;
      }
      await Promise.race([...this.active.values()].map((job) => job.done));
    }
  }

  private wake(): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    // An enqueue in a request wakes the worker: its claims belong to no request.
    this.timer = withoutLogContext(() =>
      setTimeout(() => {
        this.timer = null;
        this.tick()
          .catch((error) => this.log(`Job worker: could not claim jobs: ${describe(error)}`))
          .finally(() => {
            if (this.running && !this.timer)
              this.timer = setTimeout(() => this.wake(), this.pollMs);
          });
      }, 0),
    );
  }

  private async claimAndStart(): Promise<number> {
    if (this.stopping) return 0;
    const kinds = this.kinds;
    for (const job of await failAbandonedJobs(this.db, { kinds, now: this.clock() })) {
      countJobFailure(job.kind, "final");
      await this.reportFailure(job, new Error(job.last_error ?? "The job was abandoned"));
    }
    let started = 0;
    while (!this.stopping && this.active.size < this.concurrency) {
      const job = await claimJob(this.db, {
        kinds,
        token: this.token,
        leaseMs: this.leaseMs,
        now: this.clock(),
      });
      if (!job) break;
      const controller = new AbortController();
      // The job's lines carry the id of the request that queued it, and the job's own id and kind.
      const done = withLogContext(
        { requestId: job.request_id ?? undefined, jobId: job.id, jobKind: job.kind },
        () => this.runJob(job, controller),
      )
        // Its outcome could not be written (the database went away): the job
        // keeps its lease, and once the lease runs out a worker takes it again.
        .catch((error) =>
          this.log(`Job ${job.id}: could not record its outcome: ${describe(error)}`),
        )
        .finally(() => {
          this.active.delete(job.id);
          if (this.running) this.wake();
        });
      this.active.set(job.id, { controller, done });
      started += 1;
    }
    return started;
  }

  private async runJob(job: JobRow, controller: AbortController): Promise<void> {
    const handler = this.handlers[job.kind];
    let payload: unknown;
    try {
      payload = handler.parse(JSON.parse(job.payload));
    } catch (error) {
      await failJob(this.db, job.id, this.token, {
        error: `Invalid payload: ${describe(error)}`,
        now: this.clock(),
      });
      countJobFailure(job.kind, "final");
      this.log(
        `Job ${job.kind} ${job.id} has an invalid payload and was failed: ${describe(error)}`,
      );
      return;
    }

    // What the log lines say of an error: what the handler lets them (no recipient's address).
    const said = (error: unknown) =>
      handler.forLog ? handler.forLog(payload, describe(error)) : describe(error);
    const timeoutMs = handler.timeoutMs ?? this.timeoutMs;
    const timeout = setTimeout(() => controller.abort(new JobTimeoutError(timeoutMs)), timeoutMs);
    const heartbeat = setInterval(
      () => {
        renewLease(this.db, job.id, this.token, this.leaseMs, this.clock())
          .then((held) => {
            if (!held) controller.abort(new LeaseLostError());
          })
          .catch((error) =>
            this.log(`Job ${job.id}: could not renew its lease: ${describe(error)}`),
          );
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    const context: JobRunContext = {
      db: this.db,
      jobId: job.id,
      attempt: job.attempts,
      maxAttempts: job.max_attempts,
      signal: controller.signal,
      now: this.clock,
    };

    try {
      await raceAbort(handler.run(payload, context), controller.signal);
      const keepPayload = handler.redactWhenFinished?.(payload) ?? undefined;
      if (!(await completeJob(this.db, job.id, this.token, this.clock(), { keepPayload }))) {
        this.log(
          `Job ${job.kind} ${job.id} finished after another worker took it over; its result was kept by that worker.`,
        );
      }
    } catch (caught) {
      const error = controller.signal.aborted ? (controller.signal.reason ?? caught) : caught;
      if (error instanceof WorkerStoppingError) {
        await releaseJob(this.db, job.id, this.token, this.clock());
        return;
      }
      if (error instanceof LeaseLostError) return;
      const now = this.clock();
      if (isRetryable(error) && job.attempts < job.max_attempts) {
        const retryAt = new Date(
          now.getTime() + backoffDelayMs(job.attempts, { ...this.backoff, random: this.random }),
        );
        if (
          await retryJob(this.db, job.id, this.token, {
            runAt: retryAt,
            error: describe(error),
            now,
          })
        ) {
          countJobFailure(job.kind, "retry");
          this.log(
            `Job ${job.kind} ${job.id} attempt ${job.attempts} failed (${said(error)}); retrying at ${retryAt.toISOString()}`,
          );
          await handler
            .onRetry?.(payload, error, { ...context, retryAt })
            .catch((hookError) => this.log(`Job ${job.id}: onRetry failed: ${said(hookError)}`));
        }
        return;
      }
      const keepPayload = handler.redactWhenFinished?.(payload) ?? undefined;
      if (
        await failJob(this.db, job.id, this.token, { error: describe(error), now, keepPayload })
      ) {
        countJobFailure(job.kind, "final");
        this.log(
          `Job ${job.kind} ${job.id} failed for good after ${job.attempts} attempt(s): ${said(error)}`,
        );
        await this.reportFailure(job, error, payload);
      }
    } finally {
      clearTimeout(timeout);
      clearInterval(heartbeat);
    }
  }

  private async reportFailure(job: JobRow, error: unknown, parsed?: unknown): Promise<void> {
    const handler = this.handlers[job.kind];
    if (!handler?.onFailed) return;
    try {
      const payload = parsed ?? handler.parse(JSON.parse(job.payload));
      await handler.onFailed(payload, error, { db: this.db, jobId: job.id, now: this.clock });
    } catch (hookError) {
      const text = describe(hookError);
      this.log(
        `Job ${job.id}: onFailed failed: ${parsed !== undefined && handler.forLog ? handler.forLog(parsed, text) : text}`,
      );
    }
  }
}

/** Settles as soon as the signal aborts, even if the work ignores it. */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
