import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { getDb, openDatabase } from "~/infra/db.server";
import { newId } from "~/infra/ids.server";
import { engineOf } from "~/infra/sql-dialect.server";
import { SlidingWindowLimiter } from "~/infra/rate-limit.server";
import {
  forgetOldRateLimitHits,
  LONGEST_WINDOW_MS,
  takeSharedHit,
} from "~/infra/shared-rate-limits.server";
import { selectWhere } from "#tests/setup/rows-where";

/** Runs on the engine of the run: SQLite, or PostgreSQL in the PostgreSQL run. */
const db = () => getDb();
const at = (ms: number) => new Date(Date.UTC(2026, 10, 27) + ms);
const hitsOf = (bucket: string) => selectWhere("rate_limit_hits", "at", "bucket", bucket);

describe("limits counted in the database", () => {
  it("answer what the in-memory limiter answers, hit for hit", async () => {
    const bucket = `same:${newId()}`;
    const other = `other:${newId()}`;
    const memory = new SlidingWindowLimiter();
    const steps: [string, number][] = [
      [bucket, 0],
      [bucket, 1000],
      [bucket, 2000],
      [bucket, 4000],
      [other, 4000],
      [bucket, 9999],
      [bucket, 10_001],
      [bucket, 10_002],
      [bucket, 12_500],
      [bucket, 30_000],
    ];
    for (const [key, ms] of steps) {
      const shared = await takeSharedHit(db(), key, 3, 10_000, at(ms));
      expect(shared, `${key} at ${ms} ms`).toBe(memory.take(key, 3, 10_000, at(ms).getTime()));
    }
  });

  it("count nothing for a refused call, and forget hits past the window", async () => {
    const bucket = `refused:${newId()}`;
    for (let n = 0; n < 5; n += 1) await takeSharedHit(db(), bucket, 2, 60_000, at(n));
    expect(await hitsOf(bucket)).toHaveLength(2);
    expect(await takeSharedHit(db(), bucket, 2, 60_000, at(60_001))).toBe(0);
    // The two hits of the first minute are gone; the new one is the only one left.
    expect(await hitsOf(bucket)).toEqual([{ at: at(60_001).toISOString() }]);
  });

  it("join the caller's transaction: a hit of work that rolled back is not counted", async () => {
    const bucket = `joined:${newId()}`;
    await db()
      .transaction()
      .execute(async (trx) => {
        expect(await takeSharedHit(trx, bucket, 1, 60_000, at(0))).toBe(0);
        throw new Error("the caller's work failed");
      })
      .catch(() => undefined);
    expect(await hitsOf(bucket)).toEqual([]);
    expect(await takeSharedHit(db(), bucket, 1, 60_000, at(1))).toBe(0);
    expect(await takeSharedHit(db(), bucket, 1, 60_000, at(2))).toBeGreaterThan(0);
  });

  it("on PostgreSQL, take in one statement that commits alone without waiting for the disk, and leave a caller's transaction as it is", async () => {
    const postgres = engineOf(db()) === "postgres";
    const statements: { sql: string; parameters: readonly unknown[] }[] = [];
    const watched = db().withPlugin({
      transformQuery: (args) => {
        statements.push(db().getExecutor().compileQuery(args.node, args.queryId));
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    await takeSharedHit(watched, `alone:${newId()}`, 5, 60_000, at(0));
    if (postgres) {
      // One round trip: no begin, lock, insert, delete, count and commit of their own.
      expect(statements).toHaveLength(1);
      expect(statements[0].sql).toContain("take_rate_limit_hit(");
      expect(statements[0].parameters.at(-1)).toBe(false);
      // Asked not to wait, the function relaxes the commit of the transaction it runs in.
      const relaxed = await db()
        .transaction()
        .execute(async (trx) => {
          await sql`select take_rate_limit_hit(${`relaxed:${newId()}`}, ${newId()}, ${at(0).toISOString()}, ${at(-60_000).toISOString()}, 5, false)`.execute(
            trx,
          );
          return (
            await sql<{
              value: string;
            }>`select current_setting('synchronous_commit') as value`.execute(trx)
          ).rows[0].value;
        });
      expect(relaxed).toBe("off");
    }

    statements.length = 0;
    const setting = await watched.transaction().execute(async (trx) => {
      await takeSharedHit(trx, `joined:${newId()}`, 5, 60_000, at(0));
      if (!postgres) return "on";
      const { rows } = await sql<{
        value: string;
      }>`select current_setting('synchronous_commit') as value`.execute(trx);
      return rows[0].value;
    });
    expect(setting).toBe("on");
    if (postgres) expect(statements[0].parameters.at(-1)).toBe(true);
  });

  it("are one count for several processes: 40 calls, 7 allowed", async () => {
    const config = getConfig();
    const processes: DB[] = [0, 1, 2].map(() =>
      openDatabase(config.DATABASE_URL ?? { file: config.databaseFile }),
    );
    try {
      const bucket = `processes:${newId()}`;
      const now = new Date();
      const take = (n: number) => takeSharedHit(processes[n % 3], bucket, 7, 60_000, now);
      const calls = Array.from({ length: 40 }, (_, n) => n);
      // PostgreSQL: all at once over three pools. SQLite: three connections to the file in turn
      // (in one thread a connection waiting for the file's write lock would block the one holding
      // it; processes wait for each other through SQLite's busy timeout).
      const waits = config.DATABASE_URL
        ? await Promise.all(calls.map(take))
        : await calls.reduce<Promise<number[]>>(
            async (done, n) => [...(await done), await take(n)],
            Promise.resolve([]),
          );
      expect(waits.filter((wait) => wait === 0)).toHaveLength(7);
      expect(waits.filter((wait) => wait > 0 && wait <= 60_000)).toHaveLength(33);
      expect(await hitsOf(bucket)).toHaveLength(7);
    } finally {
      await Promise.all(processes.map((process) => process.destroy()));
    }
  });

  it("are forgotten a day after the hit at the latest", async () => {
    const old = `old:${newId()}`;
    const recent = `recent:${newId()}`;
    await takeSharedHit(db(), old, 5, 60_000, at(0));
    await takeSharedHit(db(), recent, 5, 60_000, at(2000));
    await forgetOldRateLimitHits(db(), at(LONGEST_WINDOW_MS + 1000));
    expect(await hitsOf(old)).toEqual([]);
    expect(await hitsOf(recent)).toHaveLength(1);
  });
});
