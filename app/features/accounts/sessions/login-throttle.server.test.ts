import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { sha256 } from "~/infra/ids.server";
import {
  EMAIL_SLOWDOWN_AFTER,
  forgetOldSignInCounts,
  LOGIN_WINDOW_MS,
  MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS,
  MAX_FAILURES_PER_ADDRESS,
  NEWCOMER_SPACING_MS,
  SLOWDOWN_MAX_MS,
  loginKeysOf,
  recordLoginFailure,
  releaseLoginAttempt,
  reserveLoginAttempt,
  slowdownMs,
} from "~/features/accounts/sessions/login-throttle.server";
import { rowWhere, selectWhere } from "#tests/setup/rows-where";

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

/** One failed attempt, reserved and recorded the way a wrong password is. */
async function fail(email: string, address: string, now: Date) {
  const reserved = await reserveLoginAttempt(getDb(), email, address, now);
  if (!reserved.ok) return reserved;
  await recordLoginFailure(getDb(), reserved.reservation, now);
  return reserved;
}

describe("reserveLoginAttempt", () => {
  it("lets at most 5 of 50 concurrent attempts for one email and address through", async () => {
    const now = new Date();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        reserveLoginAttempt(getDb(), "burst@example.com", "192.0.2.1", now),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS);
    for (const result of results.filter((result) => !result.ok)) {
      expect(result.ok ? 0 : result.retryAfterSeconds).toBeGreaterThan(0);
    }
  });

  it("lets at most 20 of 50 concurrent attempts from one address through, across emails", async () => {
    const now = new Date();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        reserveLoginAttempt(getDb(), `spray${i}@example.com`, "192.0.2.2", now),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(MAX_FAILURES_PER_ADDRESS);
    expect((await reserveLoginAttempt(getDb(), "spray0@example.com", "192.0.2.3", now)).ok).toBe(
      true,
    );
  });

  it("does not count successful sign-ins (released reservations)", async () => {
    const now = new Date();
    for (let i = 0; i < 12; i++) {
      const reserved = await reserveLoginAttempt(getDb(), "often@example.com", "192.0.2.4", now);
      expect(reserved.ok).toBe(true);
      if (reserved.ok) await releaseLoginAttempt(getDb(), reserved.reservation);
    }
    for (let i = 0; i < MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS; i++) {
      expect((await fail("often@example.com", "192.0.2.4", now)).ok).toBe(true);
    }
    expect((await reserveLoginAttempt(getDb(), "often@example.com", "192.0.2.4", now)).ok).toBe(
      false,
    );
    // Once the window has passed, the address may try again.
    expect(
      (
        await reserveLoginAttempt(
          getDb(),
          "often@example.com",
          "192.0.2.4",
          at(now, LOGIN_WINDOW_MS + 1),
        )
      ).ok,
    ).toBe(true);
  });

  it("slows an email down with doubling spacing for addresses that already failed for it", async () => {
    expect([4, 5, 6, 7, 10].map(slowdownMs)).toEqual([0, 1000, 2000, 4000, 32000]);
    expect(slowdownMs(100)).toBe(SLOWDOWN_MAX_MS);

    const start = new Date(Date.now() - 10 * 60 * 1000);
    // Five failures from five addresses, each a newcomer 10 s apart.
    for (let i = 0; i < EMAIL_SLOWDOWN_AFTER; i++) {
      expect((await fail("slow@example.com", `198.18.0.${i}`, at(start, i * 10_000))).ok).toBe(
        true,
      );
    }
    // 60 s later the first address may try again (spacing 1 s), and fails: 6 failures.
    expect((await fail("slow@example.com", "198.18.0.0", at(start, 60_000))).ok).toBe(true);
    // The same address right after: it waits 2 s.
    const soon = await reserveLoginAttempt(
      getDb(),
      "slow@example.com",
      "198.18.0.0",
      at(start, 60_500),
    );
    expect(soon).toEqual({ ok: false, retryAfterSeconds: 2 });
    expect((await fail("slow@example.com", "198.18.0.0", at(start, 62_000))).ok).toBe(true);
    // 7 failures: 4 s after its last attempt.
    expect(
      await reserveLoginAttempt(getDb(), "slow@example.com", "198.18.0.0", at(start, 62_000)),
    ).toEqual({ ok: false, retryAfterSeconds: 4 });
  });

  it("lets the owner in from a fresh address while 200 failures from 40 other addresses are recorded for the email", async () => {
    const email = "creator@example.com";
    const now = new Date();
    const first = now.getTime() - 14 * 60 * 1000;
    // 40 addresses, 5 failures each, spread over the last 14 minutes (the newest 30 s ago).
    for (let i = 0; i < 200; i++) {
      const address = `203.0.113.${100 + (i % 40)}`;
      const when = new Date(first + i * 4_000);
      await recordLoginFailure(
        getDb(),
        { id: `seed-${i}`, ...loginKeysOf(email, address), newcomer: i < 40 },
        when,
      );
    }
    // The attackers' addresses are each held (their own limit, or the slowdown)...
    for (let i = 0; i < 40; i++) {
      const held = await reserveLoginAttempt(getDb(), email, `203.0.113.${100 + i}`, now);
      expect(held.ok, `attacker address ${i}`).toBe(false);
    }
    // ...the owner, from an address with no failures for this email, is not.
    const owner = await reserveLoginAttempt(getDb(), email, "198.51.100.77", now);
    expect(owner.ok).toBe(true);
    if (owner.ok) await releaseLoginAttempt(getDb(), owner.reservation);
  });

  it("holds a newcomer only seconds after another newcomer's failure on an email under attack", async () => {
    const email = "target@example.com";
    const start = new Date(Date.now() - 5 * 60 * 1000);
    for (let i = 0; i < EMAIL_SLOWDOWN_AFTER; i++) {
      expect((await fail(email, "192.0.2.50", at(start, i))).ok).toBe(true);
    }
    // A new attacker address fails at +60 s.
    expect((await fail(email, "192.0.2.51", at(start, 60_000))).ok).toBe(true);
    // The owner, from yet another address, is held only for the rest of NEWCOMER_SPACING_MS...
    const held = await reserveLoginAttempt(getDb(), email, "192.0.2.52", at(start, 61_000));
    expect(held).toEqual({
      ok: false,
      retryAfterSeconds: Math.ceil((NEWCOMER_SPACING_MS - 1000) / 1000),
    });
    // ...and then gets a check, while the address that failed 5 times stays held.
    expect(
      (
        await reserveLoginAttempt(
          getDb(),
          email,
          "192.0.2.52",
          at(start, 60_000 + NEWCOMER_SPACING_MS),
        )
      ).ok,
    ).toBe(true);
    expect(
      (
        await reserveLoginAttempt(
          getDb(),
          email,
          "192.0.2.50",
          at(start, 60_000 + NEWCOMER_SPACING_MS),
        )
      ).ok,
    ).toBe(false);
  });

  // 18,000 attempts one after the other: seconds on SQLite, over a minute on PostgreSQL (a dozen round trips each).
  it("bounds an attacker hammering one email from 40 addresses for 15 minutes to about one check per address", async () => {
    const email = "hammered@example.com";
    const start = Date.now() - LOGIN_WINDOW_MS;
    let checks = 0;
    let ownerWaits = 0;
    for (let second = 0; second < 15 * 60; second += 2) {
      const now = new Date(start + second * 1000);
      for (let i = 0; i < 40; i++) {
        if ((await fail(email, `100.64.0.${i}`, now)).ok) checks++;
      }
      // Every minute the owner tries from a new address: held at most NEWCOMER_SPACING_MS.
      if (second % 60 === 0) {
        const owner = await reserveLoginAttempt(getDb(), email, `100.65.${second / 60}.1`, now);
        if (!owner.ok) {
          ownerWaits++;
          expect(owner.retryAfterSeconds).toBeLessThanOrEqual(NEWCOMER_SPACING_MS / 1000);
        } else {
          await releaseLoginAttempt(getDb(), owner.reservation);
        }
      }
    }
    // Without the slowdown each address could check 5 passwords: 200. With it, about one per address.
    expect(checks).toBeLessThanOrEqual(50);
    expect(ownerWaits).toBeLessThan(15);
  }, 180_000);
});

describe("what the throttle stores", () => {
  it("keeps the email and the address as HMACs under a key of the app secret, never as their plain SHA-256", async () => {
    const now = new Date();
    const reserved = await reserveLoginAttempt(getDb(), "Keyed@Example.com", "192.0.2.77", now);
    if (!reserved.ok) throw new Error("the first attempt is let through");
    const row = await rowWhere("login_attempts", "*", "id", reserved.reservation.id);
    await recordLoginFailure(getDb(), reserved.reservation, now);
    // Hashing every IPv4 address (or a list of emails) finds a plain SHA-256; the keyed hash needs the secret.
    expect(row.address_hash).not.toBe(sha256("192.0.2.77"));
    expect(row.email_hash).not.toBe(sha256("keyed@example.com"));
    const keys = loginKeysOf("keyed@example.com", "192.0.2.77");
    expect({ email: row.email_hash, address: row.address_hash }).toEqual({
      email: keys.emailKey,
      address: keys.addressKey,
    });
    const buckets = await selectWhere("auth_failures", "bucket", "created_at", now.toISOString());
    const stored = buckets.map((bucket) => bucket.bucket).join(" ");
    expect(stored).not.toContain(sha256("192.0.2.77"));
    expect(stored).not.toContain(sha256("keyed@example.com"));
  });
});

describe("forgetOldSignInCounts", () => {
  it("forgets failures and attempts past the window, and keeps those within it", async () => {
    const db = getDb();
    // Its own table state: the cases above wrote rows at the real clock's time, which a fixed
    // date is before or after depending on the day the suite runs.
    await db.deleteFrom("auth_failures").execute();
    await db.deleteFrom("login_attempts").execute();
    const base = new Date("2026-11-27T08:00:00.000Z");
    await fail("quiet@example.com", "198.51.100.70", base);
    await reserveLoginAttempt(db, "quiet@example.com", "198.51.100.71", base);
    const later = at(base, LOGIN_WINDOW_MS - 1000);
    await fail("quiet@example.com", "198.51.100.72", later);
    const counts = async () => ({
      failures: (await db.selectFrom("auth_failures").select("created_at").execute()).length,
      attempts: (await db.selectFrom("login_attempts").select("created_at").execute()).length,
    });
    const before = await counts();
    expect(before.attempts).toBe(1);

    await forgetOldSignInCounts(db, at(base, LOGIN_WINDOW_MS + 1));
    const left = await db.selectFrom("auth_failures").select("created_at").execute();
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((row) => row.created_at === later.toISOString())).toBe(true);
    expect((await counts()).attempts).toBe(0);
  });
});
