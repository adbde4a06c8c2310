import { type AnyDb, byteText, index, notNullDefault } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Bundles (docs/decisions/098): a creator groups 2 to 10 of their own live
// listings and sells them together at a price below the items' sum.
// - bundles: the creator, the title, the bundle's price in cents, `active` or
//   `withdrawn` (the creator withdrew it, or one of its listings was withdrawn).
// - bundle_items: which listings, in the creator's order (`position`).
// - order_items.bundle_id: the bundle an item was bought in (null for an item
//   bought on its own); its price_cents is then the item's part of the bundle's price.

export async function up(db: AnyDb): Promise<void> {
  const text = byteText(db);
  await db.schema
    .createTable("bundles")
    .addColumn("id", text, (c) => c.primaryKey())
    .addColumn("user_id", text, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("title", text, (c) => c.notNull())
    .addColumn("price_cents", "integer", (c) => c.notNull())
    .addColumn("status", text, notNullDefault("active"))
    .addColumn("created_at", text, (c) => c.notNull())
    .addColumn("updated_at", text, (c) => c.notNull())
    .execute();
  await index(db, "bundles_by_user_status", "bundles", ["user_id", "status"]).execute();
  await db.schema
    .createTable("bundle_items")
    .addColumn("bundle_id", text, (c) => c.notNull().references("bundles.id").onDelete("cascade"))
    .addColumn("listing_id", text, (c) => c.notNull().references("listings.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("bundle_items_pk", ["bundle_id", "listing_id"])
    .execute();
  await index(db, "bundle_items_by_listing", "bundle_items", ["listing_id"]).execute();
  await db.schema.alterTable("order_items").addColumn("bundle_id", text).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("order_items").dropColumn("bundle_id").execute();
  await db.schema.dropTable("bundle_items").execute();
  await db.schema.dropTable("bundles").execute();
}
