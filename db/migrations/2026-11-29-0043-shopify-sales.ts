import { sql } from "kysely";
import { type AnyDb, byteText, index, notNull, nullable, tableWithId } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Selling on Shopify delivers the file with the order (docs/decisions/073):
// - shopify_sales: one row per line of a paid Shopify order whose product is
//   one of our publications, unique by the store and Shopify's line item id,
//   so a retried or repeated orders/paid delivery acts once per line. It says
//   what was done (`delivered`, or why not: `no_buyer_email`, `no_listing`)
//   and, when delivered, the order of ours the buyer's receipt, download
//   grant and licence belong to (an `orders` row with provider `shopify`).
// - integrations.connected_at: when the connection's credentials were last
//   saved by connecting (not by a token renewal), so a late app/uninstalled
//   triggered before a reinstall is told apart from one after it. Existing
//   rows take their updated_at.

export async function up(db: AnyDb): Promise<void> {
  // On PostgreSQL, text compares byte by byte ("C"), as on SQLite.
  const text = byteText(db);
  await tableWithId(db, "shopify_sales", text)
    .$call(notNull(text, "shop_domain", "shopify_order_id", "line_item_id", "creator_id"))
    .$call(nullable(text, "listing_id", "order_id"))
    .$call(notNull(text, "outcome", "created_at"))
    .execute();
  await index(db, "shopify_sales_line", "shopify_sales", ["shop_domain", "line_item_id"])
    .unique()
    .execute();
  await index(db, "shopify_sales_creator", "shopify_sales", ["creator_id", "outcome"]).execute();
  await index(db, "shopify_sales_order", "shopify_sales", [
    "shop_domain",
    "shopify_order_id",
  ]).execute();
  await db.schema.alterTable("integrations").addColumn("connected_at", text).execute();
  await sql`update integrations set connected_at = updated_at`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("integrations").dropColumn("connected_at").execute();
  await db.schema.dropTable("shopify_sales").execute();
}
