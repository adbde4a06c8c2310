import { describe, expect, it } from "vitest";
import { sqliteBeforeMigration } from "#tests/setup/migration-steps";
import { userRow } from "#tests/setup/table-rows";

const { db, migrateToBefore, migrateRest } = sqliteBeforeMigration(
  "2026-11-26-0027-shopify-store-owner",
);

describe("migration 0027 on a database where two creators had connected one store", () => {
  it("keeps the later OAuth connection, marks the earlier one for reconnecting with why, and leaves others alone", async () => {
    await migrateToBefore();

    const at = (minute: number) => `2026-11-20T10:${String(minute).padStart(2, "0")}:00.000Z`;
    for (const id of ["u1", "u2", "u3", "u4"]) {
      await db
        .insertInto("users")
        .values(userRow(id, at(0), { email: `${id}@example.com` }))
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

    await migrateRest();
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
