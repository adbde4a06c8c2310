import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { paidOrderBefore0015, sqliteBeforeMigration } from "#tests/setup/migration-steps";

const { db, migrateToBefore, migrateRest } = sqliteBeforeMigration(
  "2026-11-26-0015-license-ids-and-session-hashes",
);

describe("migration 0015 on a database with orders", () => {
  it("gives each order its own license id and keeps only the hash of its checkout session id", async () => {
    await migrateToBefore();
    const now = new Date().toISOString();
    const sessions = ["cs_test_a1b2c3", "cs_testmode_secret-session", null];
    for (const [index, session] of sessions.entries()) {
      await db
        .insertInto("orders")
        .values(
          paidOrderBefore0015({
            id: `o${index}`,
            provider: "test",
            checkout_session_id: session,
            checkout_url: session ? `http://localhost:3000/test-checkout/${session}` : null,
            at: now,
          }),
        )
        .execute();
    }

    await migrateRest();
    const orders = await db
      .selectFrom("orders")
      .select(["id", "license_id", "checkout_session_hash"])
      .orderBy("id")
      .execute();
    expect(orders.map((order) => order.checkout_session_hash)).toEqual([
      crypto.createHash("sha256").update("cs_test_a1b2c3").digest("hex"),
      crypto.createHash("sha256").update("cs_testmode_secret-session").digest("hex"),
      null,
    ]);
    for (const order of orders) expect(order.license_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(orders.map((order) => order.license_id)).size).toBe(3);
    expect(orders.map((order) => order.license_id)).not.toContain("o0");
    const columns = (await db.introspection.getTables())
      .find((table) => table.name === "orders")!
      .columns.map((column) => column.name);
    expect(columns).not.toContain("checkout_session_id");
    expect(columns).not.toContain("checkout_url");
    await expect(
      db
        .updateTable("orders")
        .set({ license_id: orders[0].license_id })
        .where("id", "=", "o1")
        .execute(),
    ).rejects.toThrow(/UNIQUE/);
  });
});
