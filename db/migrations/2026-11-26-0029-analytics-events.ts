import { sql } from "kysely";
import { type AnyDb, index, notNull, ownedBy } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// A creator's analytics per day:
// - listing_days: one row per listing and UTC day with that day's views and
//   add-to-carts (each counted once per visitor and day), and the listing's
//   creator, so a creator's days are one index range (creator_id, day).
//   Rows are kept; they hold counts only, never who.
// - listing_cart_adds: like listing_views, one row per listing, visitor (a
//   keyed hash) and day, so a visitor's add-to-cart counts once a day; old
//   days are purged as new ones are recorded.
// The views of the days listing_views still holds are carried over.

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("listing_days")
    .$call(ownedBy("listing_id", "listings.id"))
    .addColumn("creator_id", "text", (c) => c.notNull())
    // YYYY-MM-DD (UTC).
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("views", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cart_adds", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("listing_days_pk", ["listing_id", "day"])
    .execute();
  await index(db, "listing_days_creator_id_day", "listing_days", ["creator_id", "day"]).execute();

  await db.schema
    .createTable("listing_cart_adds")
    .$call(ownedBy("listing_id", "listings.id"))
    .$call(notNull("text", "visitor_hash", "day"))
    .addPrimaryKeyConstraint("listing_cart_adds_pk", ["listing_id", "visitor_hash", "day"])
    .execute();
  await index(db, "listing_cart_adds_day", "listing_cart_adds", ["day"]).execute();

  await sql`insert into listing_days (listing_id, creator_id, day, views)
    select v.listing_id, l.user_id, v.day, count(*) from listing_views v join listings l on l.id = v.listing_id
    group by v.listing_id, v.day`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("listing_cart_adds").execute();
  await db.schema.dropTable("listing_days").execute();
}
