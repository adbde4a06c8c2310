import { sql } from "kysely";
import { type AnyDb, index, notNull } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Shopify with expiring tokens and its webhooks:
// - integrations rows keep their sealed JSON; for Shopify it now also holds
//   the refresh token and both expiries (no new column: all of it is sealed).
// - listing_platforms.external_shop: the store (<name>.myshopify.com) a
//   product id (external_id) belongs to, so an uninstall or shop/redact of
//   one store drops exactly its links. Existing Shopify rows take the store
//   their creator is connected to now.
// - shopify_webhook_receipts: each webhook Shopify delivered (by its
//   X-Shopify-Webhook-Id, so a redelivery is recognised), its topic, shop and
//   what was done; the record of compliance requests.

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("listing_platforms").addColumn("external_shop", "text").execute();
  await sql`update listing_platforms set external_shop = (
      select i.shop_domain from integrations i where i.user_id = listing_platforms.user_id and i.platform = 'shopify'
    ) where platform = 'shopify' and external_id is not null`.execute(db);
  await index(db, "listing_platforms_external_shop", "listing_platforms", [
    "external_shop",
  ]).execute();

  await db.schema
    .createTable("shopify_webhook_receipts")
    .addColumn("webhook_id", "text", (c) => c.primaryKey())
    .$call(notNull("text", "topic", "shop_domain"))
    // What the app did, in a sentence (e.g. "removed 1 connection and 3 product links").
    .$call(notNull("text", "outcome", "received_at"))
    .execute();
  await index(db, "shopify_webhook_receipts_shop", "shopify_webhook_receipts", [
    "shop_domain",
    "received_at",
  ]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("shopify_webhook_receipts").execute();
  await db.schema.dropIndex("listing_platforms_external_shop").execute();
  await db.schema.alterTable("listing_platforms").dropColumn("external_shop").execute();
}
