import type { DB } from "~/infra/db.server";
import type { UserRow } from "#db/schema";
import { newSecretToken, sha256 } from "~/infra/ids.server";

/**
 * Web sessions and API tokens are both rows keyed by the hash of a random
 * secret; the browser or client holds the secret. Deleting rows revokes at once.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export async function createWebSession(db: DB, userId: string, days: number, now = new Date()) {
  const secret = newSecretToken();
  const expiresAt = new Date(now.getTime() + days * DAY_MS);
  await db
    .insertInto("sessions")
    .values({
      id_hash: sha256(secret),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      last_seen_at: now.toISOString(),
    })
    .execute();
  return { secret, expiresAt };
}

/** sessions.last_seen_at is written at most this often per session, so most page views write nothing. */
export const SESSION_LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000;

/**
 * The user behind a web session that has neither run out its life nor been
 * left unused for `idleDays`; records its use (to SESSION_LAST_SEEN_RESOLUTION_MS).
 * An idle session stops working on its next request and is deleted then.
 */
export async function userForWebSession(db: DB, secret: string, now: Date, idleDays: number) {
  const idHash = sha256(secret);
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .selectAll("users")
    .select("sessions.last_seen_at as session_last_seen_at")
    .where("sessions.id_hash", "=", idHash)
    .where("sessions.expires_at", ">", now.toISOString())
    .executeTakeFirst();
  if (!row) return undefined;
  const { session_last_seen_at: lastSeenAt, ...user } = row;
  if (lastSeenAt <= new Date(now.getTime() - idleDays * DAY_MS).toISOString()) {
    await db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
    return undefined;
  }
  if (user.banned || user.erased_at) return undefined;
  const staleBefore = new Date(now.getTime() - SESSION_LAST_SEEN_RESOLUTION_MS).toISOString();
  if (lastSeenAt <= staleBefore) {
    // Conditional, so concurrent requests write it once.
    await db
      .updateTable("sessions")
      .set({ last_seen_at: now.toISOString() })
      .where("id_hash", "=", idHash)
      .where("last_seen_at", "<=", staleBefore)
      .execute();
  }
  return user as UserRow;
}

export async function deleteWebSession(db: DB, secret: string) {
  await db.deleteFrom("sessions").where("id_hash", "=", sha256(secret)).execute();
}

export async function createApiToken(db: DB, userId: string, days: number, now = new Date()) {
  const token = newSecretToken();
  const expiresAt = new Date(now.getTime() + days * DAY_MS);
  await db
    .insertInto("api_tokens")
    .values({
      token_hash: sha256(token),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      last_used_at: null,
    })
    .execute();
  return { token, expiresAt };
}

/** api_tokens.last_used_at is written at most this often per token, so most authenticated reads write nothing. */
export const TOKEN_LAST_USED_RESOLUTION_MS = 60 * 1000;

/** The user behind a bearer token, and records when the token was last used (to the minute). */
export async function userForApiToken(db: DB, token: string, now = new Date()) {
  const tokenHash = sha256(token);
  const row = await db
    .selectFrom("api_tokens")
    .innerJoin("users", "users.id", "api_tokens.user_id")
    .selectAll("users")
    .select("api_tokens.last_used_at as token_last_used_at")
    .where("api_tokens.token_hash", "=", tokenHash)
    .where("api_tokens.expires_at", ">", now.toISOString())
    .executeTakeFirst();
  if (!row || row.banned || row.erased_at) return undefined;
  const { token_last_used_at: lastUsedAt, ...user } = row;
  const staleBefore = new Date(now.getTime() - TOKEN_LAST_USED_RESOLUTION_MS).toISOString();
  if (lastUsedAt === null || lastUsedAt <= staleBefore) {
    // Conditional, so concurrent requests write it once.
    await db
      .updateTable("api_tokens")
      .set({ last_used_at: now.toISOString() })
      .where("token_hash", "=", tokenHash)
      .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<=", staleBefore)]))
      .execute();
  }
  return user as UserRow;
}

export async function deleteApiToken(db: DB, token: string) {
  await db.deleteFrom("api_tokens").where("token_hash", "=", sha256(token)).execute();
}

/** Ends every web session and API token of a user (logout everywhere, ban). */
export async function revokeAllCredentials(db: DB, userId: string) {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
  await db.deleteFrom("api_tokens").where("user_id", "=", userId).execute();
}

export async function deleteExpiredCredentials(db: DB, now = new Date()) {
  await db.deleteFrom("sessions").where("expires_at", "<=", now.toISOString()).execute();
  await db.deleteFrom("api_tokens").where("expires_at", "<=", now.toISOString()).execute();
}
