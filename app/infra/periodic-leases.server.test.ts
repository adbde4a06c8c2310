import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { getDb, openDatabase } from "~/infra/db.server";
import { acquireLease, releaseLease, renewLease } from "~/infra/periodic-leases.server";
import { runPeriodically } from "~/infra/run-periodically.server";
import { firstRowWhere } from "#tests/setup/rows-where";

/**
 * The leases on periodic tasks, on SQLite and (with TEST_DATABASE_URL) on
 * PostgreSQL: one holder at a time, taken over once expired, renewed only by
 * its holder; and many processes racing for one lease let exactly one win.
 */

const T0 = new Date("2026-11-27T10:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const claim = (holder: string, nowMs: number, ttlMs = 60_000) => ({
  name: "purge",
  holder,
  ttlMs,
  now: at(nowMs),
});
const holderOf = async (name = "purge") =>
  (await firstRowWhere("periodic_leases", ["holder", "expires_at"], "name", name))?.holder;

const connections: DB[] = [];
/** A Kysely instance and pool of its own, as another server process has. */
function openProcess(): DB {
  const config = getConfig();
  const db = config.DATABASE_URL
    ? openDatabase({ url: config.DATABASE_URL, poolSize: 2 })
    : openDatabase(config.databaseFile);
  connections.push(db);
  return db;
}

beforeEach(async () => {
  await getDb().deleteFrom("periodic_leases").execute();
});
afterEach(async () => {
  await Promise.all(connections.splice(0).map((db) => db.destroy()));
});

describe("a periodic lease", () => {
  it("has one holder at a time: the second asks in vain until the first's expires", async () => {
    expect(await acquireLease(getDb(), claim("a", 0))).toBe(true);
    expect(await acquireLease(getDb(), claim("b", 1_000))).toBe(false);
    expect(await acquireLease(getDb(), claim("b", 59_999))).toBe(false);
    expect(await holderOf()).toBe("a");
    // Not even its own holder takes it again before it expires (it renews instead).
    expect(await acquireLease(getDb(), claim("a", 30_000))).toBe(false);
  });

  it("is taken over once expired, and the old holder can no longer renew or release it", async () => {
    expect(await acquireLease(getDb(), claim("a", 0))).toBe(true);
    expect(await acquireLease(getDb(), claim("b", 60_000))).toBe(true);
    expect(await holderOf()).toBe("b");
    expect(await renewLease(getDb(), claim("a", 61_000))).toBe(false);
    await releaseLease(getDb(), { name: "purge", holder: "a", now: at(61_000) });
    expect(await acquireLease(getDb(), claim("c", 61_000))).toBe(false);
    expect(await holderOf()).toBe("b");
  });

  it("is renewed by its holder, which keeps others out past the first expiry", async () => {
    expect(await acquireLease(getDb(), claim("a", 0))).toBe(true);
    expect(await renewLease(getDb(), claim("a", 50_000))).toBe(true);
    expect(await acquireLease(getDb(), claim("b", 60_000))).toBe(false);
    expect(await acquireLease(getDb(), claim("b", 109_999))).toBe(false);
    expect(await acquireLease(getDb(), claim("b", 110_000))).toBe(true);
  });

  it("is free again at once when its holder releases it", async () => {
    expect(await acquireLease(getDb(), claim("a", 0))).toBe(true);
    await releaseLease(getDb(), { name: "purge", holder: "a", now: at(1_000) });
    expect(await acquireLease(getDb(), claim("b", 1_000))).toBe(true);
    expect(await holderOf()).toBe("b");
  });

  it("keeps leases of different tasks apart", async () => {
    expect(await acquireLease(getDb(), claim("a", 0))).toBe(true);
    expect(await acquireLease(getDb(), { ...claim("b", 0), name: "retention" })).toBe(true);
    expect(await holderOf("retention")).toBe("b");
  });

  it("goes to exactly one of many processes asking at once, fresh and after expiry", async () => {
    const processes = Array.from({ length: 8 }, () => openProcess());
    const race = async (nowMs: number) =>
      (
        await Promise.all(
          processes.map((db, n) =>
            Promise.all([0, 1, 2].map((k) => acquireLease(db, claim(`p${n}-${k}`, nowMs)))),
          ),
        )
      )
        .flat()
        .filter(Boolean).length;
    expect(await race(0)).toBe(1);
    expect(await race(30_000)).toBe(0);
    expect(await race(60_000)).toBe(1);
  });
});

describe("runPeriodically", () => {
  it("runs a task once per period across several processes", async () => {
    let now = T0.getTime();
    const clock = () => new Date(now);
    const runs: string[] = [];
    const runners = ["a", "b", "c"].map((name) =>
      runPeriodically(
        "probe",
        60_000,
        async () => {
          runs.push(name);
        },
        { db: openProcess(), clock, checkEveryMs: 60 * 60_000 },
      ),
    );
    try {
      const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
      await settle();
      expect(runs).toHaveLength(1); // all three looked at start; one ran
      now += 59_000;
      await Promise.all(runners.map((runner) => runner.checkNow()));
      expect(runs).toHaveLength(1); // still within the period
      now += 1_000;
      await Promise.all(runners.map((runner) => runner.checkNow()));
      expect(runs).toHaveLength(2); // the next period: once more, in one of them
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
    }
  });
});
