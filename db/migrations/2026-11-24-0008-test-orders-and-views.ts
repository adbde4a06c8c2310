import { sql } from "kysely";
import { type AnyDb, index, ownedBy } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Test sales and marketplace views:
// - earnings.test_mode is 1 for a sale made in the built-in test checkout
//   (orders.provider = 'test'), so a production server can leave those out of
//   every revenue and earnings sum. Existing rows are marked from their order.
// - listing_views keeps one row per listing, visitor and day (UTC), so a
//   visitor counts once a day; the visitor is a keyed hash, never an address.

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("earnings")
    .addColumn("test_mode", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update earnings set test_mode = 1 where order_id in (select id from orders where provider = 'test')`.execute(
    db,
  );

  await db.schema
    .createTable("listing_views")
    .$call(ownedBy("listing_id", "listings.id"))
    .addColumn("visitor_hash", "text", (c) => c.notNull())
    // YYYY-MM-DD (UTC).
    .addColumn("day", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("listing_views_pk", ["listing_id", "visitor_hash", "day"])
    .execute();
  // The purge of old days.
  await index(db, "listing_views_day", "listing_views", ["day"]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("listing_views").execute();
  await db.schema.alterTable("earnings").dropColumn("test_mode").execute();
}
