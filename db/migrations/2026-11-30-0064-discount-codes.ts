import { sql } from "kysely";
import { type AnyDb, byteText, index, notNullDefault } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Discount codes (docs/decisions/103): a creator's codes, each a percent or an
// amount off that creator's items, optionally only some listings, between a
// start and an end, up to a number of paid orders.
// - discount_codes: the code as buyers type it (upper case), `percent_off`
//   (1-100) or `amount_off_cents`, `listing_ids` (a JSON array, null for all
//   the creator's listings), `starts_at`/`ends_at` (null: no limit),
//   `max_redemptions` (null: no limit) and `redemptions` (paid orders that
//   used it). A deleted code keeps its row (`deleted_at`) for the creator's
//   figures per code; a creator has one undeleted code of a text.
// - order_items.discount_cents: what a code took off the item's price (the
//   creator's share and the fee are computed on the price less it), and
//   order_items.discount_code_id the code that did (null: none).

export async function up(db: AnyDb): Promise<void> {
  const text = byteText(db);
  await db.schema
    .createTable("discount_codes")
    .addColumn("id", text, (c) => c.primaryKey())
    .addColumn("user_id", text, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code", text, (c) => c.notNull())
    .addColumn("percent_off", "integer")
    .addColumn("amount_off_cents", "integer")
    .addColumn("listing_ids", text)
    .addColumn("starts_at", text)
    .addColumn("ends_at", text)
    .addColumn("max_redemptions", "integer")
    .addColumn("redemptions", "integer", notNullDefault(0))
    .addColumn("deleted_at", text)
    .addColumn("created_at", text, (c) => c.notNull())
    .addColumn("updated_at", text, (c) => c.notNull())
    .execute();
  await index(db, "discount_codes_live_code", "discount_codes", ["user_id", "code"])
    .unique()
    .where(sql.ref("deleted_at"), "is", null)
    .execute();
  await index(db, "discount_codes_by_code", "discount_codes", ["code"]).execute();
  await db.schema
    .alterTable("order_items")
    .addColumn("discount_cents", "integer", notNullDefault(0))
    .execute();
  await db.schema.alterTable("order_items").addColumn("discount_code_id", text).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("order_items").dropColumn("discount_code_id").execute();
  await db.schema.alterTable("order_items").dropColumn("discount_cents").execute();
  await db.schema.dropTable("discount_codes").execute();
}
