import type { Expression, ExpressionBuilder, Kysely, SqlBool, UpdateObject } from "kysely";
import { sql } from "kysely";
import type { Database, JobRow } from "#db/schema";
import type { JobProblem } from "~/lib/job-problem";
import { newId } from "~/infra/ids.server";
import { currentRequestId } from "~/infra/log-context.server";
import {
  containsSubstring,
  greaterOf,
  jsonTextField,
  lockedRows,
} from "~/infra/sql-dialect.server";

/**
 * The durable job queue: rows in the `jobs` table.
 *
 * A job is queued -> running -> done | failed. A worker claims one with a
 * single UPDATE that sets a lease (`locked_until`) and the worker's lease
 * token (`locked_by`), and counts the attempt: atomic in SQLite, across
 * processes too; on PostgreSQL the row it picks is locked and rows other
 * claims hold are passed over (FOR UPDATE SKIP LOCKED). A job whose lease ran out is claimable again: that is how work of a
 * process that died is picked up after a restart. Every later change (renew,
 * done, retry, fail) names the lease token, so a worker that lost its lease
 * cannot overwrite the new owner's outcome.
 */

type Executor = Kysely<Database>;

const listeners = new Set<() => void>();

/** Runs `listener` whenever this process enqueues a job (the worker wakes up at once instead of at its next poll). */
export function onJobEnqueued(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells this process's worker that work is waiting (call after the enqueueing transaction committed). */
export function announceJobs(): void {
  for (const listener of listeners) listener();
}

export interface EnqueueOptions {
  kind: string;
  payload: unknown;
  now: Date;
  maxAttempts?: number;
  runAt?: Date;
  /** The creator the job works for: the queue takes turns between owners, and a ban cancels their queued jobs. */
  userId?: string | null;
  /** The request the job was asked for in (default: the request or job being served now), for the worker's log lines. */
  requestId?: string | null;
}

/** Adds a job. Pass a transaction to enqueue together with the rows the job works on. */
export async function enqueueJob(db: Executor, options: EnqueueOptions): Promise<string> {
  const id = newId();
  const now = options.now.toISOString();
  await db
    .insertInto("jobs")
    .values({
      id,
      kind: options.kind,
      payload: JSON.stringify(options.payload ?? null),
      status: "queued",
      max_attempts: options.maxAttempts ?? 3,
      run_at: (options.runAt ?? options.now).toISOString(),
      locked_until: null,
      locked_by: null,
      last_error: null,
      user_id: options.userId ?? null,
      claimed_at: null,
      request_id: options.requestId ?? currentRequestId() ?? null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export interface ClaimOptions {
  kinds: readonly string[];
  /** The claimant's lease token. */
  token: string;
  leaseMs: number;
  now: Date;
}

/**
 * Claims the next due job of the given kinds, or a running one whose lease
 * expired, in one statement. Answers the claimed row (attempts already counted).
 *
 * Owners take turns: among the due jobs, the one taken is the oldest job of
 * the owner (jobs.user_id; jobs of nobody count as one owner) with the fewest
 * jobs running under a live lease, then of the owner served least recently
 * (never served first). So one creator's hundred queued jobs wait behind
 * another creator's single job instead of starving it.
 */
export async function claimJob(db: Executor, options: ClaimOptions): Promise<JobRow | null> {
  if (options.kinds.length === 0) return null;
  const now = options.now.toISOString();
  const lease = new Date(options.now.getTime() + options.leaseMs).toISOString();
  const row = await db
    .updateTable("jobs")
    .set({
      status: "running",
      attempts: sql`attempts + 1`,
      locked_until: lease,
      locked_by: options.token,
      claimed_at: now,
      updated_at: now,
    })
    .where("id", "=", (eb) =>
      // On PostgreSQL the chosen row is locked and rows other workers are
      // claiming are passed over (FOR UPDATE SKIP LOCKED); SQLite's single
      // writer makes the claim atomic by itself.
      lockedRows(
        db,
        eb
          .selectFrom("jobs as due")
          .select("due.id")
          .where("due.kind", "in", options.kinds)
          .where(sql<boolean>`due.attempts < due.max_attempts`)
          .where((w) =>
            w.or([
              w.and([w("due.status", "=", "queued"), w("due.run_at", "<=", now)]),
              w.and([w("due.status", "=", "running"), w("due.locked_until", "<", now)]),
            ]),
          )
          // Each owner's figures, with the job of nobody apart: `user_id = due.user_id`
          // and `user_id is null` both use the owner indexes (a null-safe comparison
          // of the two columns does not, on PostgreSQL).
          .orderBy(
            sql`(case when due.user_id is null
              then (select count(*) from jobs as busy where busy.user_id is null and busy.status = 'running' and busy.locked_until >= ${now})
              else (select count(*) from jobs as busy where busy.user_id = due.user_id and busy.status = 'running' and busy.locked_until >= ${now})
            end)`,
          )
          .orderBy(
            sql`(case when due.user_id is null
              then (select max(served.claimed_at) from jobs as served where served.user_id is null)
              else (select max(served.claimed_at) from jobs as served where served.user_id = due.user_id)
            end)`,
            // Never served first (SQLite puts nulls first by itself; PostgreSQL last).
            (order) => order.asc().nullsFirst(),
          )
          .orderBy("due.run_at")
          .orderBy("due.created_at")
          .limit(1),
        { skipLocked: true },
      ),
    )
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

type JobUpdate = UpdateObject<Database, "jobs">;

/** Changes a running job only while this worker's lease token still holds it. */
async function updateHeldJob(
  db: Executor,
  id: string,
  token: string,
  changes: JobUpdate,
): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set(changes)
    .where("id", "=", id)
    .where("locked_by", "=", token)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Pushes the lease of a job this worker holds further out. False when the lease was lost. */
export async function renewLease(
  db: Executor,
  id: string,
  token: string,
  leaseMs: number,
  now: Date,
): Promise<boolean> {
  return updateHeldJob(db, id, token, {
    locked_until: new Date(now.getTime() + leaseMs).toISOString(),
    updated_at: now.toISOString(),
  });
}

/** `keepPayload`: what of the payload the finished job keeps (it held a secret, say a link in a message). */
export async function completeJob(
  db: Executor,
  id: string,
  token: string,
  now: Date,
  { keepPayload }: { keepPayload?: unknown } = {},
): Promise<boolean> {
  return updateHeldJob(db, id, token, {
    ...(keepPayload !== undefined ? { payload: JSON.stringify(keepPayload) } : {}),
    status: "done",
    locked_until: null,
    locked_by: null,
    last_error: null,
    updated_at: now.toISOString(),
  });
}

/** Puts a failed attempt back in the queue, due at `runAt`. */
export async function retryJob(
  db: Executor,
  id: string,
  token: string,
  options: { runAt: Date; error: string; now: Date },
): Promise<boolean> {
  return updateHeldJob(db, id, token, {
    status: "queued",
    run_at: options.runAt.toISOString(),
    locked_until: null,
    locked_by: null,
    last_error: options.error.slice(0, 2000),
    updated_at: options.now.toISOString(),
  });
}

export async function failJob(
  db: Executor,
  id: string,
  token: string,
  options: { error: string; now: Date; keepPayload?: unknown },
): Promise<boolean> {
  return updateHeldJob(db, id, token, {
    ...(options.keepPayload !== undefined ? { payload: JSON.stringify(options.keepPayload) } : {}),
    status: "failed",
    locked_until: null,
    locked_by: null,
    last_error: options.error.slice(0, 2000),
    updated_at: options.now.toISOString(),
  });
}

/**
 * Gives a job back without counting the attempt (the worker is shutting down
 * and stopped it on purpose): another worker may take it at once.
 */
export async function releaseJob(
  db: Executor,
  id: string,
  token: string,
  now: Date,
): Promise<boolean> {
  return updateHeldJob(db, id, token, {
    status: "queued",
    attempts: greaterOf(db, sql`attempts - 1`, sql.lit(0)),
    run_at: now.toISOString(),
    locked_until: null,
    locked_by: null,
    updated_at: now.toISOString(),
  });
}

/**
 * Jobs whose last allowed attempt was running in a worker that is gone (lease
 * expired, no attempts left): marks each failed and answers those this call
 * failed, so their handlers can record the failure once.
 */
export async function failAbandonedJobs(
  db: Executor,
  options: { kinds: readonly string[]; now: Date },
): Promise<JobRow[]> {
  if (options.kinds.length === 0) return [];
  const now = options.now.toISOString();
  const candidates = await db
    .selectFrom("jobs")
    .select("id")
    .where("kind", "in", options.kinds)
    .where("status", "=", "running")
    .where("locked_until", "<", now)
    .where(sql<boolean>`attempts >= max_attempts`)
    .limit(50)
    .execute();
  const failed: JobRow[] = [];
  for (const { id } of candidates) {
    const row = await db
      .updateTable("jobs")
      .set({
        status: "failed",
        locked_until: null,
        locked_by: null,
        last_error: "The worker stopped while running the last allowed attempt",
        updated_at: now,
      })
      .where("id", "=", id)
      .where("status", "=", "running")
      .where("locked_until", "<", now)
      .returningAll()
      .executeTakeFirst();
    if (row) failed.push(row);
  }
  return failed;
}

/** Exponential backoff: base, 2x base, 4x base ... capped, with jitter between 50% and 100%. */
export function backoffDelayMs(
  attempt: number,
  options: { baseMs: number; maxMs: number; random?: () => number },
): number {
  const exponential = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
  const random = options.random ?? Math.random;
  return Math.round(exponential * (0.5 + 0.5 * random()));
}

/**
 * Fails the owner's queued jobs, except those of `keepKinds`, or only those of
 * `onlyKinds` when given (a job a worker holds is left to see for itself that
 * its work is called off).
 */
export async function cancelQueuedJobsOfOwner(
  db: Executor,
  {
    userId,
    keepKinds = [],
    onlyKinds,
    reason,
    now,
  }: {
    userId: string;
    keepKinds?: readonly string[];
    onlyKinds?: readonly string[];
    reason: string;
    now: Date;
  },
): Promise<void> {
  let query = db
    .updateTable("jobs")
    .set({
      status: "failed",
      locked_until: null,
      locked_by: null,
      last_error: reason,
      updated_at: now.toISOString(),
    })
    .where("user_id", "=", userId)
    .where("status", "=", "queued");
  if (keepKinds.length > 0) query = query.where("kind", "not in", keepKinds);
  if (onlyKinds) query = query.where("kind", "in", onlyKinds.length > 0 ? onlyKinds : [""]);
  await query.execute();
}

/**
 * Deletes the finished jobs of `kind` (done or given up) last changed before
 * `before` (an ISO time); a queued or running job is never touched. Answers
 * how many went.
 */
export async function deleteFinishedJobsBefore(
  db: Executor,
  { kind, before }: { kind: string; before: string },
): Promise<number> {
  const result = await db
    .deleteFrom("jobs")
    .where("kind", "=", kind)
    .where("status", "in", ["done", "failed"])
    .where("updated_at", "<", before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes the jobs of `kind` whose payload's text field `field` (a top-level
 * JSON field name such as `to`) `matches` accepts, sent or waiting; a job a
 * worker is running at this moment is left to finish. Answers how many went.
 *
 * Only jobs whose field, lower-cased, contains one of `containing` (lower-case
 * text every accepted value holds, taken literally) are read and put to
 * `matches`: the database narrows, the caller decides exactly (a substring
 * alone would take `joann@example.com` for `ann@example.com`).
 */
export async function deleteJobsByField(
  db: Executor,
  {
    kind,
    field,
    containing,
    matches,
  }: {
    kind: string;
    field: string;
    containing: readonly string[];
    matches: (value: string) => boolean;
  },
): Promise<number> {
  if (containing.length === 0) return 0;
  const value = sql<string>`lower(coalesce(${jsonTextField(db, sql.ref("payload"), field)}, ''))`;
  const candidates = await db
    .selectFrom("jobs")
    .select(["id", jsonTextField(db, sql.ref("payload"), field).as("value")])
    .where("kind", "=", kind)
    .where("status", "!=", "running")
    .where((eb) =>
      eb.or(containing.map((text) => containsSubstring(db, value, text.toLowerCase()))),
    )
    .execute();
  const ids = candidates
    .filter((row) => typeof row.value === "string" && matches(row.value))
    .map((row) => row.id);
  let deleted = 0;
  for (let at = 0; at < ids.length; at += 500) {
    const result = await db
      .deleteFrom("jobs")
      .where("id", "in", ids.slice(at, at + 500))
      .where("status", "!=", "running")
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}

/** Whether a worker holds a job of the owner right now (other than `exceptJobId`). */
export async function ownerHasRunningJob(
  db: Executor,
  userId: string,
  exceptJobId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom("jobs")
    .select("id")
    .where("user_id", "=", userId)
    .where("status", "=", "running");
  if (exceptJobId) query = query.where("id", "!=", exceptJobId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Why the admin's retry or cancel changed nothing: no such job, or a job in a state the operation does not apply to. */
export type AdminJobRefusal = "not-found" | "not-failed" | "running" | "finished";

/**
 * Queues a failed job again, due now, with its attempts counted from zero
 * (the admin's Retry). Only a failed job: one UPDATE guarded by its status,
 * so two admins retrying at once queue it once, and a job a worker holds is
 * never touched.
 */
export async function requeueFailedJob(
  db: Executor,
  id: string,
  now: Date,
): Promise<AdminJobOutcome> {
  const at = now.toISOString();
  return adminJobUpdate(
    db,
    id,
    { status: "queued", attempts: 0, run_at: at, updated_at: at },
    (eb) => eb("status", "=", "failed"),
    "failed",
  );
}

export const CANCELLED_BY_ADMIN = "Cancelled by the admin";

/**
 * Calls off a queued or failed job (the admin's Cancel): it ends failed with
 * "Cancelled by the admin" and is never claimed again (its attempts are used
 * up). A running job is refused: the UPDATE names the states it may change,
 * so a worker's claim between the admin's look and the click wins, and the
 * worker's outcome is never overwritten underneath it.
 */
export async function cancelJob(db: Executor, id: string, now: Date): Promise<AdminJobOutcome> {
  return adminJobUpdate(
    db,
    id,
    {
      status: "failed",
      attempts: sql`max_attempts`,
      last_error: CANCELLED_BY_ADMIN,
      updated_at: now.toISOString(),
    },
    (eb) =>
      eb.or([
        eb("status", "=", "queued"),
        eb.and([eb("status", "=", "failed"), notCancelledByAdmin(eb)]),
      ]),
    "cancel",
  );
}

/** What the admin's retry or cancel did: the job as it now stands, or why nothing changed. */
export type AdminJobOutcome = { ok: true; job: JobRow } | { ok: false; reason: AdminJobRefusal };

/**
 * One guarded UPDATE of the admin's: `changes` (the lease released) to job `id`
 * only while `allowed` holds, or the reason it did not.
 */
async function adminJobUpdate(
  db: Executor,
  id: string,
  changes: UpdateObject<Database, "jobs">,
  allowed: (eb: ExpressionBuilder<Database, "jobs">) => Expression<SqlBool>,
  wanted: "failed" | "cancel",
): Promise<AdminJobOutcome> {
  const row = await db
    .updateTable("jobs")
    .set({ ...changes, locked_until: null, locked_by: null })
    .where("id", "=", id)
    .where(allowed)
    .returningAll()
    .executeTakeFirst();
  if (row) return { ok: true, job: row };
  return { ok: false, reason: await refusalFor(db, id, wanted) };
}

function notCancelledByAdmin(eb: ExpressionBuilder<Database, "jobs">) {
  return eb.or([eb("last_error", "is", null), eb("last_error", "!=", CANCELLED_BY_ADMIN)]);
}

async function refusalFor(
  db: Executor,
  id: string,
  wanted: "failed" | "cancel",
): Promise<AdminJobRefusal> {
  const row = await db.selectFrom("jobs").select("status").where("id", "=", id).executeTakeFirst();
  if (!row) return "not-found";
  if (row.status === "running") return "running";
  if (row.status === "done") return "finished";
  return wanted === "failed" ? "not-failed" : "finished";
}

/**
 * The jobs an operator should look at, newest first, at most `limit`: failed
 * ones (not those the admin cancelled), running ones whose lease ran out (their worker is gone), and queued
 * ones due for longer than `queuedTooLongMs`.
 */
export async function listJobProblems(
  db: Executor,
  { now, queuedTooLongMs, limit }: { now: Date; queuedTooLongMs: number; limit: number },
): Promise<JobProblem[]> {
  const at = now.toISOString();
  const dueBefore = new Date(now.getTime() - queuedTooLongMs).toISOString();
  const rows = await db
    .selectFrom("jobs")
    .select([
      "id",
      "kind",
      "status",
      "attempts",
      "max_attempts",
      "last_error",
      "request_id",
      "locked_until",
      "created_at",
      "updated_at",
    ])
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "failed"), notCancelledByAdmin(eb)]),
        eb.and([eb("status", "=", "running"), eb("locked_until", "<", at)]),
        eb.and([eb("status", "=", "queued"), eb("run_at", "<", dueBefore)]),
      ]),
    )
    .orderBy("updated_at", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    status: row.status as JobProblem["status"],
    problem:
      row.status === "failed"
        ? "failed"
        : row.status === "running"
          ? "stuck-running"
          : "stuck-queued",
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    lastError: row.last_error,
    requestId: row.request_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));
}
