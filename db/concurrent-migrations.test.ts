import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase, type DB } from "~/infra/db.server";
import { testPostgresDatabase } from "#tests/setup/test-postgres";

const postgres = testPostgresDatabase(process.env.TEST_DATABASE_URL);
const opened: DB[] = [];
afterAll(async () => {
  for (const db of opened) await db.destroy();
  await postgres?.drop();
});

describe.skipIf(!postgres)("migrations on PostgreSQL (TEST_DATABASE_URL)", () => {
  it("run once when four servers start on an empty database together (Kysely's migration lock)", async () => {
    await postgres!.create();
    const starts = Array.from({ length: 4 }, () => openDatabase(postgres!.url));
    opened.push(...starts);
    const applied = await Promise.all(starts.map((db) => migrateToLatest(db)));
    // Each migration was applied by exactly one of them; the others found it done.
    const all = applied.flat();
    expect(new Set(all).size).toBe(all.length);
    const recorded = await sql<{
      n: number;
    }>`select count(*) as n from kysely_migration`.execute(starts[0]);
    expect(recorded.rows[0].n).toBe(all.length);
    expect(all.length).toBeGreaterThan(1);
  });
});
