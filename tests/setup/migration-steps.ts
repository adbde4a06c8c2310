import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, type Migration } from "kysely";
import { afterAll } from "vitest";
import { migrationsFor } from "#db/migrations/index";
import { openDatabase } from "~/infra/db.server";

/**
 * A SQLite database of the test file's own (closed and removed after its
 * tests) for checking what one migration does to data written before it:
 * `migrateToBefore()` runs the migrations older than `migration`, so rows can
 * be written as the code of the time did; `migrateRest()` then runs the rest.
 * Each throws what a migration threw.
 */
export function sqliteBeforeMigration(migration: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-migration-"));
  const db = openDatabase(path.join(dir, "old.sqlite"));
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const migrations = migrationsFor("sqlite");
  const run = async (chosen: Record<string, Migration>) => {
    const { error } = await new Migrator({
      db,
      provider: { getMigrations: async () => chosen },
    }).migrateToLatest();
    if (error) throw error;
  };
  return {
    db,
    migrateToBefore: () =>
      run(Object.fromEntries(Object.entries(migrations).filter(([name]) => name < migration))),
    migrateRest: () => run(migrations),
  };
}

/**
 * A paid order as the code before migration 0015 wrote it: with
 * `checkout_session_id` and `checkout_url` (0015 renamed the one and dropped
 * the other), for `insertInto("orders").values(…)` on a database migrated to
 * before it.
 */
export function paidOrderBefore0015(order: {
  id: string;
  provider: "test" | "stripe";
  checkout_session_id: string | null;
  checkout_url: string | null;
  at: string;
}) {
  const { at, ...rest } = order;
  return {
    ...rest,
    status: "paid",
    customer_name: "B",
    customer_email: "b@example.com",
    customer_company: null,
    total_cents: 1000,
    failure_reason: null,
    created_at: at,
    updated_at: at,
    paid_at: at,
  } as never;
}
