import { type AnyDb, addColumns, byteText } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Licence tiers (docs/decisions/101). A listing is always sold with the
// Standard licence, and with the Extended and Exclusive ones when its creator
// prices them:
// - listings.extended_price_cents, exclusive_price_cents: the tier's price
//   (at least price_cents), null when the tier is not offered;
// - listings.exclusive_sold_at: when an Exclusive licence of it was paid; the
//   listing is then withdrawn for good and its stylized image is never listed
//   again.
// - listing_platforms.extended_price_cents, exclusive_price_cents: the tier
//   prices a publication asked the own marketplace for (the job lists with them);
// - order_items.license_type: "standard", "extended" or "exclusive"; null for
//   an item sold before tiers existed, which keeps the single licence it was
//   sold with (read as Standard, with those original terms).

export async function up(db: AnyDb): Promise<void> {
  await addColumns(db, "listings", "integer", ["extended_price_cents", "exclusive_price_cents"]);
  await db.schema.alterTable("listings").addColumn("exclusive_sold_at", byteText(db)).execute();
  await addColumns(db, "listing_platforms", "integer", [
    "extended_price_cents",
    "exclusive_price_cents",
  ]);
  await db.schema.alterTable("order_items").addColumn("license_type", byteText(db)).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("order_items").dropColumn("license_type").execute();
  for (const column of ["exclusive_price_cents", "extended_price_cents"])
    await db.schema.alterTable("listing_platforms").dropColumn(column).execute();
  for (const column of ["exclusive_sold_at", "exclusive_price_cents", "extended_price_cents"])
    await db.schema.alterTable("listings").dropColumn(column).execute();
}
