import { type AnyDb, index } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Shopify webhook deliveries are recognised by their body as well as by
// their id: shopify_webhook_receipts.body_sha256 is the SHA-256 (hex) of the
// raw signed body, unique, so a signed body is acted on once whatever
// X-Shopify-Webhook-Id (an unsigned header) comes with it. Receipts from
// before have none (null).
//
// (Listing previews' variants need no column: they are files named after the
// preview, made when the listing is.)

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("shopify_webhook_receipts").addColumn("body_sha256", "text").execute();
  await index(db, "shopify_webhook_receipts_body", "shopify_webhook_receipts", ["body_sha256"])
    .unique()
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("shopify_webhook_receipts_body").execute();
  await db.schema.alterTable("shopify_webhook_receipts").dropColumn("body_sha256").execute();
}
