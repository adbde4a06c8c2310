import { sql } from "kysely";
import type { DB } from "./db.server";
import { newId } from "./ids.server";
import { engineOf } from "./sql-dialect.server";

/**
 * Sliding-window counts kept in the database (rate_limit_hits), for when
 * several processes serve one database and each would otherwise count alone:
 * the same answers as the in-memory SlidingWindowLimiter, shared by them all.
 *
 * On SQLite a take records its hit first, so the transaction holds the write
 * lock before it counts (processes sharing the file count one after another);
 * past the limit the hit is deleted again, so a refused call counts nothing.
 * On PostgreSQL a take is one statement, the database's take_rate_limit_hit
 * (migration 0048): it locks the bucket, forgets hits past the window, counts
 * and records the hit only when it is allowed, in one round trip (a throttled
 * search paid seven before). Called inside a transaction a take joins it (the
 * hit stands or falls with the caller's work); on its own, on PostgreSQL, its
 * commit does not wait for the disk: a crash may forget the last hits, which
 * only lets an address make a few more calls after the restart.
 */

/** Longer than any limit's window: hits older than this are deleted by the hourly forgetOldRateLimitHits. */
export const LONGEST_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Deletes the hits past the longest window (run hourly, so no address is kept longer than a day). */
export async function forgetOldRateLimitHits(db: DB, now: Date): Promise<void> {
  await db
    .deleteFrom("rate_limit_hits")
    .where("at", "<", new Date(now.getTime() - LONGEST_WINDOW_MS).toISOString())
    .execute();
}

/** Counts one hit on `bucket`, or answers the milliseconds until one would be allowed (nothing is counted then). */
export async function takeSharedHit(
  db: DB,
  bucket: string,
  limit: number,
  windowMs: number,
  now: Date,
): Promise<number> {
  const hit: Hit = { bucket, limit, windowMs, now };
  if (engineOf(db) === "postgres") return takeInOneStatement(db, hit);
  const run = (trx: DB) => takeWithin(trx, hit);
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** One hit asked for: its bucket, the bucket's limit and window, and the time. */
interface Hit {
  bucket: string;
  limit: number;
  windowMs: number;
  now: Date;
}

async function takeInOneStatement(db: DB, { bucket, limit, windowMs, now }: Hit): Promise<number> {
  const nowMs = now.getTime();
  const windowStart = new Date(nowMs - windowMs).toISOString();
  // Its own transaction (the statement's) need not wait for the disk; a caller's keeps its setting.
  const waitForDisk = db.isTransaction;
  const { rows } = await sql<{ opener: string | null }>`select take_rate_limit_hit(
      ${bucket}, ${newId()}, ${now.toISOString()}, ${windowStart},
      ${limit}::integer, ${waitForDisk}::boolean
    ) as opener`.execute(db);
  const opener = rows[0]?.opener;
  return opener ? Math.max(1, Date.parse(opener) + windowMs - nowMs) : 0;
}

/** SQLite: record, forget past the window, count; undo the hit past the limit. */
async function takeWithin(trx: DB, { bucket, limit, windowMs, now }: Hit): Promise<number> {
  const id = newId();
  const nowMs = now.getTime();
  await trx.insertInto("rate_limit_hits").values({ id, bucket, at: now.toISOString() }).execute();
  await trx
    .deleteFrom("rate_limit_hits")
    .where("bucket", "=", bucket)
    .where("at", "<=", new Date(nowMs - windowMs).toISOString())
    .execute();
  const earlier = await trx
    .selectFrom("rate_limit_hits")
    .select("at")
    .where("bucket", "=", bucket)
    .where("id", "!=", id)
    .orderBy("at")
    .orderBy("id")
    .execute();
  if (earlier.length < limit) return 0;
  await trx.deleteFrom("rate_limit_hits").where("id", "=", id).execute();
  const opens = Date.parse(earlier[earlier.length - limit].at) + windowMs;
  return Math.max(1, opens - nowMs);
}
