import { sql } from "kysely";
import { type AnyDb, index, notNull, nullable, ownedBy, tableWithId } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Selling: marketplace listings, orders and their items, the earnings ledger,
// download grants and the processed Stripe webhook events. Exactly-once
// fulfillment rests on the unique constraints here (earnings.order_item_id,
// download_grants.order_item_id, webhook_events.id) together with a transaction.

export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, "listings")
    .$call(ownedBy("user_id", "users.id"))
    // Deleting the stylized image withdraws the listing (the service does that),
    // but the row and its snapshotted files stay so sold copies remain downloadable.
    .addColumn("stylized_image_id", "text", (c) =>
      c.references("stylized_images.id").onDelete("set null"),
    )
    .$call(notNull("text", "style", "title"))
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("price_cents", "integer", (c) => c.notNull())
    .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("licensing_enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("nft_enabled", "integer", (c) => c.notNull().defaultTo(0))
    // Snapshots taken at listing time: the clean file sold to buyers (under listings/)
    // and the public watermarked preview (under previews/).
    .$call(notNull("text", "file_key", "file_mime_type"))
    // The stylized image's file the snapshot was copied from (to re-snapshot only on change).
    .addColumn("source_file_key", "text", (c) => c.notNull())
    .$call(notNull("integer", "width", "height"))
    .addColumn("preview_key", "text", (c) => c.notNull())
    .addColumn("view_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .$call(notNull("text", "created_at", "updated_at"))
    .execute();
  // Marketplace pages: newest first, keyset on (created_at, id).
  await index(db, "listings_status_created_at_id", "listings", [
    "status",
    "created_at",
    "id",
  ]).execute();
  await index(db, "listings_status_style_created_at_id", "listings", [
    "status",
    "style",
    "created_at",
    "id",
  ]).execute();
  await index(db, "listings_user_id_created_at", "listings", ["user_id", "created_at"]).execute();
  // One active listing per stylized image (updated in place).
  await db.schema
    .createIndex("listings_active_stylized_image_id")
    .on("listings")
    .column("stylized_image_id")
    .unique()
    .where(sql.ref("status"), "=", "active")
    .execute();

  await tableWithId(db, "orders")
    .addColumn("checkout_session_id", "text", (c) => c.unique())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .$call(notNull("text", "customer_name", "customer_email"))
    .addColumn("customer_company", "text")
    .addColumn("total_cents", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("usd"))
    .$call(nullable("text", "checkout_url", "failure_reason"))
    .$call(notNull("text", "created_at", "updated_at"))
    .addColumn("paid_at", "text")
    .execute();
  await index(db, "orders_status_created_at", "orders", ["status", "created_at"]).execute();

  await tableWithId(db, "order_items")
    .$call(ownedBy("order_id", "orders.id"))
    .addColumn("listing_id", "text", (c) => c.notNull().references("listings.id"))
    .$call(ownedBy("creator_id", "users.id"))
    .$call(notNull("text", "title", "style"))
    .addColumn("price_cents", "integer", (c) => c.notNull())
    .$call(notNull("text", "file_key", "file_mime_type", "created_at"))
    .execute();
  await index(db, "order_items_order_id", "order_items", ["order_id"]).execute();
  await index(db, "order_items_listing_id", "order_items", ["listing_id"]).execute();
  await index(db, "order_items_creator_id", "order_items", ["creator_id"]).execute();

  await tableWithId(db, "earnings")
    .addColumn("order_item_id", "text", (c) =>
      c.notNull().unique().references("order_items.id").onDelete("cascade"),
    )
    .$call(ownedBy("order_id", "orders.id"))
    .$call(ownedBy("creator_id", "users.id"))
    .addColumn("listing_id", "text", (c) => c.notNull().references("listings.id"))
    .$call(notNull("integer", "amount_cents", "platform_fee_cents"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await index(db, "earnings_creator_id_created_at", "earnings", [
    "creator_id",
    "created_at",
  ]).execute();

  await tableWithId(db, "download_grants")
    // One grant per purchased item: issuing twice is a constraint violation.
    .addColumn("order_item_id", "text", (c) =>
      c.notNull().unique().references("order_items.id").onDelete("cascade"),
    )
    .$call(ownedBy("order_id", "orders.id"))
    // Only the hash of the download token is stored (the token is an HMAC of the
    // grant's random id under a key derived from the app secret).
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("max_downloads", "integer", (c) => c.notNull())
    .addColumn("downloads_used", "integer", (c) => c.notNull().defaultTo(0))
    .$call(notNull("text", "expires_at", "created_at"))
    .execute();
  await index(db, "download_grants_order_id", "download_grants", ["order_id"]).execute();

  await tableWithId(db, "webhook_events")
    .$call(notNull("text", "type", "processed_at"))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("webhook_events").execute();
  await db.schema.dropTable("download_grants").execute();
  await db.schema.dropTable("earnings").execute();
  await db.schema.dropTable("order_items").execute();
  await db.schema.dropTable("orders").execute();
  await db.schema.dropTable("listings").execute();
}
