import type { DB } from "~/infra/db.server";
import type { UserRow } from "#db/schema";
import { newId, newSecretToken, sha256 } from "~/infra/ids.server";
import type { SessionView } from "~/features/accounts/sessions/session-types";

/**
 * Web sessions and API tokens are both rows keyed by the hash of a random
 * secret; the browser or client holds the secret. Deleting rows revokes at once.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** How much of a User-Agent header is kept for the sessions list: enough to name the browser and system. */
export const USER_AGENT_MAX_LENGTH = 256;

/** The User-Agent as stored: trimmed and cut to USER_AGENT_MAX_LENGTH; null when none was sent. */
export function storedUserAgent(userAgent: string | null | undefined): string | null {
  const trimmed = (userAgent ?? "").trim();
  return trimmed === "" ? null : trimmed.slice(0, USER_AGENT_MAX_LENGTH);
}

export async function createWebSession(
  db: DB,
  userId: string,
  days: number,
  now = new Date(),
  userAgent: string | null = null,
) {
  const secret = newSecretToken();
  const expiresAt = new Date(now.getTime() + days * DAY_MS);
  await db
    .insertInto("sessions")
    .values({
      id_hash: sha256(secret),
      public_id: newId(),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      last_seen_at: now.toISOString(),
      user_agent: storedUserAgent(userAgent),
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

export async function createApiToken(
  db: DB,
  userId: string,
  days: number,
  now = new Date(),
  userAgent: string | null = null,
) {
  const token = newSecretToken();
  const expiresAt = new Date(now.getTime() + days * DAY_MS);
  await db
    .insertInto("api_tokens")
    .values({
      token_hash: sha256(token),
      public_id: newId(),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      last_used_at: null,
      user_agent: storedUserAgent(userAgent),
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

/**
 * Ends every web session and API token of a user (a ban, a password reset,
 * erasure): each answers 401 (or goes to sign-in) from its next request.
 */
export async function endAllSessionsAndTokens(db: DB, userId: string) {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
  await db.deleteFrom("api_tokens").where("user_id", "=", userId).execute();
}

/** The former name of endAllSessionsAndTokens, kept for its callers. */
export const revokeAllCredentials = endAllSessionsAndTokens;

/**
 * The secrets a call was made with, so the sessions list can mark the current
 * one and "everywhere else" can spare it: the web session's secret (a call
 * signed in by cookie) and the bearer token (a call made with one).
 */
export interface CallerCredentials {
  webSessionSecret: string | null;
  bearerToken: string | null;
}

/**
 * The user's web sessions and API tokens that still work (not expired, and a
 * web session not idle for `idleDays`), most recently used first.
 */
export async function listSessionsAndTokens(
  db: DB,
  userId: string,
  caller: CallerCredentials,
  now: Date,
  idleDays: number,
): Promise<SessionView[]> {
  const currentSession = caller.webSessionSecret ? sha256(caller.webSessionSecret) : null;
  const currentToken = caller.bearerToken ? sha256(caller.bearerToken) : null;
  const idleBefore = new Date(now.getTime() - idleDays * DAY_MS).toISOString();
  const sessions = await db
    .selectFrom("sessions")
    .select(["id_hash", "public_id", "created_at", "last_seen_at", "user_agent"])
    .where("user_id", "=", userId)
    .where("expires_at", ">", now.toISOString())
    .where("last_seen_at", ">", idleBefore)
    .execute();
  const tokens = await db
    .selectFrom("api_tokens")
    .select(["token_hash", "public_id", "created_at", "last_used_at", "user_agent"])
    .where("user_id", "=", userId)
    .where("expires_at", ">", now.toISOString())
    .execute();
  const views: SessionView[] = [
    ...sessions.map((row) => ({
      id: row.public_id,
      kind: "web" as const,
      createdAt: row.created_at,
      lastUsedAt: row.last_seen_at,
      userAgent: row.user_agent,
      current: row.id_hash === currentSession,
    })),
    ...tokens.map((row) => ({
      id: row.public_id,
      kind: "token" as const,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      userAgent: row.user_agent,
      current: row.token_hash === currentToken,
    })),
  ];
  const recency = (view: SessionView) => view.lastUsedAt ?? view.createdAt;
  return views.sort(
    (a, b) => Number(b.current) - Number(a.current) || recency(b).localeCompare(recency(a)),
  );
}

/**
 * Ends one of the user's web sessions or API tokens by its public id. Answers
 * what was ended (null when the id is not one of the user's), and whether it
 * was the one the call was made with.
 */
export async function endSessionOrToken(
  db: DB,
  userId: string,
  publicId: string,
  caller: CallerCredentials,
): Promise<{ kind: "web" | "token"; current: boolean } | null> {
  const session = await db
    .deleteFrom("sessions")
    .where("user_id", "=", userId)
    .where("public_id", "=", publicId)
    .returning("id_hash")
    .executeTakeFirst();
  if (session) {
    return {
      kind: "web",
      current:
        caller.webSessionSecret !== null && session.id_hash === sha256(caller.webSessionSecret),
    };
  }
  const token = await db
    .deleteFrom("api_tokens")
    .where("user_id", "=", userId)
    .where("public_id", "=", publicId)
    .returning("token_hash")
    .executeTakeFirst();
  if (token) {
    return {
      kind: "token",
      current: caller.bearerToken !== null && token.token_hash === sha256(caller.bearerToken),
    };
  }
  return null;
}

/** Ends every web session and API token of the user but the one the call was made with ("sign out everywhere else"). */
export async function endOtherSessionsAndTokens(
  db: DB,
  userId: string,
  caller: CallerCredentials,
): Promise<void> {
  const keepSession = caller.webSessionSecret ? sha256(caller.webSessionSecret) : null;
  const keepToken = caller.bearerToken ? sha256(caller.bearerToken) : null;
  let sessions = db.deleteFrom("sessions").where("user_id", "=", userId);
  if (keepSession) sessions = sessions.where("id_hash", "!=", keepSession);
  await sessions.execute();
  let tokens = db.deleteFrom("api_tokens").where("user_id", "=", userId);
  if (keepToken) tokens = tokens.where("token_hash", "!=", keepToken);
  await tokens.execute();
}

export async function deleteExpiredCredentials(db: DB, now = new Date()) {
  await db.deleteFrom("sessions").where("expires_at", "<=", now.toISOString()).execute();
  await db.deleteFrom("api_tokens").where("expires_at", "<=", now.toISOString()).execute();
}

/** A creator's sessions and API tokens as their data export lists them: when and from what, never a secret or its hash. */
export async function credentialsForExport(db: DB, userId: string) {
  const [sessions, tokens] = await Promise.all([
    db
      .selectFrom("sessions")
      .select(["public_id", "created_at", "last_seen_at", "expires_at", "user_agent"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("api_tokens")
      .select(["public_id", "created_at", "last_used_at", "expires_at", "user_agent"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .execute(),
  ]);
  return {
    sessions: sessions.map((row) => ({
      id: row.public_id,
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      expiresAt: row.expires_at,
      browser: row.user_agent,
    })),
    apiTokens: tokens.map((row) => ({
      id: row.public_id,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      expiresAt: row.expires_at,
      client: row.user_agent,
    })),
  };
}
