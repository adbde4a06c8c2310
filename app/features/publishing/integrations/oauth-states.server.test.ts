import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import {
  consumeOAuthState,
  createOAuthState,
} from "~/features/publishing/integrations/oauth-states.server";
import { createTestUser } from "#tests/setup/accounts";

describe("OAuth states", () => {
  it("work once, for the user and platform they were made for", async () => {
    const db = getDb();
    const { user } = await createTestUser();
    const now = new Date("2026-11-22T10:00:00Z");
    const state = await createOAuthState(db, {
      userId: user.id,
      platform: "shopify",
      shopDomain: "a.myshopify.com",
      display: "popup",
      now,
    });
    expect(state).toMatch(/^[\w-]{43}$/);
    // Only the hash is stored.
    const rows = await db.selectFrom("oauth_states").selectAll().execute();
    expect(rows.map((row) => row.state_hash)).not.toContain(state);

    expect(
      await consumeOAuthState(db, { state, userId: user.id, platform: "shopify", now }),
    ).toEqual({
      userId: user.id,
      platform: "shopify",
      shopDomain: "a.myshopify.com",
      display: "popup",
    });
    // Replayed: refused.
    expect(
      await consumeOAuthState(db, { state, userId: user.id, platform: "shopify", now }),
    ).toBeNull();
  });

  it("refuse another user, another platform, and an unknown state (and are used up by the attempt)", async () => {
    const db = getDb();
    const alice = await createTestUser();
    const mallory = await createTestUser();
    const now = new Date("2026-11-22T10:00:00Z");
    const stolen = await createOAuthState(db, { userId: alice.user.id, platform: "shopify", now });
    expect(
      await consumeOAuthState(db, {
        state: stolen,
        userId: mallory.user.id,
        platform: "shopify",
        now,
      }),
    ).toBeNull();
    expect(
      await consumeOAuthState(db, {
        state: stolen,
        userId: alice.user.id,
        platform: "shopify",
        now,
      }),
    ).toBeNull();

    const other = await createOAuthState(db, { userId: alice.user.id, platform: "shopify", now });
    expect(
      await consumeOAuthState(db, {
        state: other,
        userId: alice.user.id,
        platform: "opensea",
        now,
      }),
    ).toBeNull();
    expect(
      await consumeOAuthState(db, {
        state: "made-up",
        userId: alice.user.id,
        platform: "shopify",
        now,
      }),
    ).toBeNull();
    expect(
      await consumeOAuthState(db, { state: "", userId: alice.user.id, platform: "shopify", now }),
    ).toBeNull();
  });

  it("expire after 10 minutes", async () => {
    const db = getDb();
    const { user } = await createTestUser();
    const made = new Date("2026-11-22T10:00:00Z");
    const fresh = await createOAuthState(db, { userId: user.id, platform: "shopify", now: made });
    const stale = await createOAuthState(db, { userId: user.id, platform: "shopify", now: made });
    const justInTime = new Date(made.getTime() + 9 * 60_000 + 59_000);
    const tooLate = new Date(made.getTime() + 10 * 60_000);
    expect(
      await consumeOAuthState(db, {
        state: fresh,
        userId: user.id,
        platform: "shopify",
        now: justInTime,
      }),
    ).not.toBeNull();
    expect(
      await consumeOAuthState(db, {
        state: stale,
        userId: user.id,
        platform: "shopify",
        now: tooLate,
      }),
    ).toBeNull();
  });
});
