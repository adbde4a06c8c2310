import type { DB } from "~/server/db.server";
import { sha256 } from "~/server/ids.server";

/**
 * Failed sign-ins counted per email and per client address in a sliding
 * window, in the database so a restart does not reset them. Successful
 * sign-ins do not count (api.md: at least 5 per email, 20 per address, in 15 minutes).
 */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

const emailBucket = (email: string) => `email:${sha256(email.trim().toLowerCase())}`;
const addressBucket = (address: string) => `ip:${sha256(address)}`;

/** Seconds until another attempt is allowed, or 0 when it is allowed now. */
export async function loginRetryAfter(db: DB, email: string, address: string, now = new Date()) {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString();
  let wait = 0;
  for (const [bucket, limit] of [
    [emailBucket(email), MAX_FAILURES_PER_EMAIL],
    [addressBucket(address), MAX_FAILURES_PER_ADDRESS],
  ] as const) {
    const rows = await db
      .selectFrom("auth_failures")
      .select("created_at")
      .where("bucket", "=", bucket)
      .where("created_at", ">", since)
      .orderBy("created_at", "desc")
      .limit(limit)
      .execute();
    if (rows.length >= limit) {
      // The window reopens when the oldest of the last `limit` failures ages out.
      const oldest = new Date(rows[rows.length - 1].created_at).getTime();
      wait = Math.max(wait, Math.ceil((oldest + LOGIN_WINDOW_MS - now.getTime()) / 1000));
    }
  }
  return Math.max(0, wait);
}

export async function recordLoginFailure(db: DB, email: string, address: string, now = new Date()) {
  const at = now.toISOString();
  await db
    .insertInto("auth_failures")
    .values([
      { bucket: emailBucket(email), created_at: at },
      { bucket: addressBucket(address), created_at: at },
    ])
    .execute();
  // Keep the table small: forget failures older than the window.
  await db
    .deleteFrom("auth_failures")
    .where("created_at", "<", new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString())
    .execute();
}
