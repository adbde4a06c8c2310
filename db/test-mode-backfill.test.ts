import { describe, expect, it } from "vitest";
import { paidOrderBefore0015, sqliteBeforeMigration } from "#tests/setup/migration-steps";
import { listingRow, userRow } from "#tests/setup/table-rows";

const { db, migrateToBefore, migrateRest } = sqliteBeforeMigration(
  "2026-11-24-0008-test-orders-and-views",
);

describe("migration 0008 on a database with sales", () => {
  it("marks the ledger rows of test-checkout orders test_mode = 1 and the others 0", async () => {
    await migrateToBefore();

    const now = new Date().toISOString();
    await db.insertInto("users").values(userRow("u1", now)).execute();
    await db
      .insertInto("listings")
      .values(
        listingRow({ id: "l1", user_id: "u1", stylized_image_id: null }, now, {
          title: "T",
          file_key: "listings/l1.png",
          file_mime_type: "image/png",
          source_file_key: "styled/l1.png",
        }),
      )
      .execute();
    for (const provider of ["test", "stripe"] as const) {
      const orderId = `o-${provider}`;
      await db
        .insertInto("orders")
        .values(
          paidOrderBefore0015({
            id: orderId,
            provider,
            checkout_session_id: `cs-${provider}`,
            checkout_url: null,
            at: now,
          }),
        )
        .execute();
      await db
        .insertInto("order_items")
        .values({
          id: `i-${provider}`,
          order_id: orderId,
          listing_id: "l1",
          creator_id: "u1",
          title: "T",
          style: "anime",
          price_cents: 1000,
          file_key: "listings/l1.png",
          file_mime_type: "image/png",
          created_at: now,
        })
        .execute();
      // Written as the old code did, without the column.
      await db
        .insertInto("earnings")
        .values({
          id: `e-${provider}`,
          order_item_id: `i-${provider}`,
          order_id: orderId,
          creator_id: "u1",
          listing_id: "l1",
          amount_cents: 850,
          platform_fee_cents: 150,
          created_at: now,
        } as never)
        .execute();
    }

    await migrateRest();
    const rows = await db
      .selectFrom("earnings")
      .select(["order_id", "test_mode"])
      .orderBy("order_id")
      .execute();
    expect(rows).toEqual([
      { order_id: "o-stripe", test_mode: 0 },
      { order_id: "o-test", test_mode: 1 },
    ]);
  });
});
