import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFor } from "./migrations/index";

const migrations = migrationsFor("sqlite");
import { openDatabase } from "~/infra/db.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-migration-0027-"));
const db = openDatabase(path.join(dir, "old.sqlite"));
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const MIGRATION = "2026-11-26-0027-shopify-store-owner";

describe("migration 0027 on a database where two creators had connected one store", () => {
  it("keeps the later OAuth connection, marks the earlier one for reconnecting with why, and leaves others alone", async () => {
    const older = Object.fromEntries(
      Object.entries(migrations).filter(([name]) => name < MIGRATION),
    );
    expect(
      (await new Migrator({ db, provider: { getMigrations: async () => older } }).migrateToLatest())
        .error,
    ).toBeUndefined();

    const at = (minute: number) => `2026-11-20T10:${String(minute).padStart(2, "0")}:00.000Z`;
    for (const id of ["u1", "u2", "u3", "u4"]) {
      await db
        .insertInto("users")
        .values({
          id,
          email: `${id}@example.com`,
          first_name: "C",
          last_name: "R",
          password_hash: "x",
          created_at: at(0),
          updated_at: at(0),
        })
        .execute();
    }
    const row = (
      id: string,
      user: string,
      shop: string,
      method: "oauth" | "apiKey",
      minute: number,
    ) => ({
      id,
      user_id: user,
      platform: "shopify",
      method,
      credentials: "sealed",
      key_last4: "abcd",
      shop_domain: shop,
      created_at: at(minute),
      updated_at: at(minute),
    });
    await db
      .insertInto("integrations")
      .values([
        row("first", "u1", "shared.myshopify.com", "oauth", 1),
        row("second", "u2", "shared.myshopify.com", "oauth", 2),
        row("custom", "u3", "shared.myshopify.com", "apiKey", 3),
        row("alone", "u4", "alone.myshopify.com", "oauth", 1),
      ])
      .execute();

    expect(
      (
        await new Migrator({
          db,
          provider: { getMigrations: async () => migrations },
        }).migrateToLatest()
      ).error,
    ).toBeUndefined();
    const rows = Object.fromEntries(
      (await db.selectFrom("integrations").select(["id", "is_active", "last_error"]).execute()).map(
        (r) => [r.id, r],
      ),
    );
    expect(rows.first.is_active).toBe(0);
    expect(rows.first.last_error).toMatch(
      /Another creator connected this Shopify store to Selfie Studio after you/,
    );
    expect(rows.second).toMatchObject({ is_active: 1, last_error: null });
    expect(rows.custom).toMatchObject({ is_active: 1, last_error: null });
    expect(rows.alone).toMatchObject({ is_active: 1, last_error: null });

    // From now on the database holds one active OAuth connection per store.
    await expect(
      db.updateTable("integrations").set({ is_active: 1 }).where("id", "=", "first").execute(),
    ).rejects.toThrow(/UNIQUE constraint failed/);
  });
});
