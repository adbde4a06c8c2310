import { type AnyDb, byteText, notNull, notNullDefault } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Saves of a listing for a creator's analytics (docs/decisions/099). Saved
// listings live only in the buyer's signed cookie, so a save is counted when
// it happens:
// - listing_days.saves: the listing's saves of that UTC day, beside its views
//   and add-to-carts (a count, never who);
// - listing_saves: like listing_cart_adds, one row per day, visitor (a keyed
//   hash of the day and the visitor) and listing, so a visitor's save counts
//   once a day and a visitor's saves are capped per day; keyed by day and
//   visitor first (one range per visitor, and the purge of old days one range
//   too), without a foreign key: the rows last a day or two.

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("listing_days")
    .addColumn("saves", "integer", notNullDefault(0))
    .execute();
  await db.schema
    .createTable("listing_saves")
    // YYYY-MM-DD (UTC).
    .$call(notNull(byteText(db), "day", "visitor_hash", "listing_id"))
    .addPrimaryKeyConstraint("listing_saves_pk", ["day", "visitor_hash", "listing_id"])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("listing_saves").execute();
  await db.schema.alterTable("listing_days").dropColumn("saves").execute();
}
