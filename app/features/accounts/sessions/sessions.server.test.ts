import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { sha256 } from "~/infra/ids.server";
import { createTestUser } from "#tests/setup/accounts";
import {
  createApiToken,
  createWebSession,
  SESSION_LAST_SEEN_RESOLUTION_MS,
  TOKEN_LAST_USED_RESOLUTION_MS,
  userForApiToken,
  userForWebSession,
} from "~/features/accounts/sessions/sessions.server";
import { rowWhere } from "#tests/setup/rows-where";

async function lastUsedAt(token: string) {
  const row = await rowWhere("api_tokens", "last_used_at", "token_hash", sha256(token));
  return row.last_used_at;
}

describe("API token last use", () => {
  it("is recorded on bearer auth, written at most once a minute per token", async () => {
    const db = getDb();
    const { user } = await createTestUser();
    const start = new Date("2026-11-24T10:00:00.000Z");
    const { token } = await createApiToken(db, user.id, 30, start);
    const { token: other } = await createApiToken(db, user.id, 30, start);
    expect(await lastUsedAt(token)).toBeNull();

    expect((await userForApiToken(db, token, start))?.id).toBe(user.id);
    expect(await lastUsedAt(token)).toBe(start.toISOString());

    // Within the minute nothing is written.
    const soon = new Date(start.getTime() + TOKEN_LAST_USED_RESOLUTION_MS - 1000);
    const user2 = await userForApiToken(db, token, soon);
    expect(await lastUsedAt(token)).toBe(start.toISOString());
    // The answer is the user row only.
    expect(Object.keys(user2!).sort()).toEqual(Object.keys(user).sort());

    const later = new Date(start.getTime() + TOKEN_LAST_USED_RESOLUTION_MS);
    await userForApiToken(db, token, later);
    expect(await lastUsedAt(token)).toBe(later.toISOString());

    // Another token of the same user is untouched; a wrong token writes nothing.
    expect(await lastUsedAt(other)).toBeNull();
    expect(await userForApiToken(db, "not-a-token", later)).toBeUndefined();
  });
});

describe("web session idle timeout", () => {
  const DAY = 24 * 60 * 60 * 1000;
  const lastSeen = async (secret: string) =>
    ((await rowWhere("sessions", "*", "id_hash", sha256(secret))) as { last_seen_at?: string })
      .last_seen_at;

  it("ends a session left unused for SESSION_IDLE_DAYS, though its 30-day life has not run out", async () => {
    const db = getDb();
    const { user } = await createTestUser();
    const start = new Date("2026-11-24T10:00:00.000Z");
    const { secret } = await createWebSession(db, user.id, 30, start);
    expect((await userForWebSession(db, secret, new Date(start.getTime() + 6 * DAY), 7))?.id).toBe(
      user.id,
    );
    // Used on day 6, so still good on day 12; then 8 idle days end it.
    expect((await userForWebSession(db, secret, new Date(start.getTime() + 12 * DAY), 7))?.id).toBe(
      user.id,
    );
    expect(
      await userForWebSession(db, secret, new Date(start.getTime() + 20 * DAY), 7),
    ).toBeUndefined();
    expect(
      await userForWebSession(db, secret, new Date(start.getTime() + 20 * DAY + 1000), 7),
    ).toBeUndefined();
  });

  it("writes the last-seen time at most every few minutes, so page views mostly write nothing", async () => {
    const db = getDb();
    const { user } = await createTestUser();
    const start = new Date("2026-11-24T10:00:00.000Z");
    const { secret } = await createWebSession(db, user.id, 30, start);
    expect(await lastSeen(secret)).toBe(start.toISOString());
    await userForWebSession(
      db,
      secret,
      new Date(start.getTime() + SESSION_LAST_SEEN_RESOLUTION_MS - 1000),
      7,
    );
    expect(await lastSeen(secret)).toBe(start.toISOString());
    const later = new Date(start.getTime() + SESSION_LAST_SEEN_RESOLUTION_MS);
    await userForWebSession(db, secret, later, 7);
    expect(await lastSeen(secret)).toBe(later.toISOString());
  });
});
