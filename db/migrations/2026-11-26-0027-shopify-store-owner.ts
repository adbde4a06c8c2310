import { sql } from "kysely";
import type { AnyDb } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.

/**
 * One working OAuth connection per Shopify store. Shopify keeps one offline
 * token per app and store, so when two creators had connected the same store
 * only the later one's token still worked: the earlier connections are marked
 * as needing reconnecting (with a sentence saying why), and a partial unique
 * index keeps it to one active OAuth connection per store from now on.
 * Connections made with a custom app's token (method "apiKey") are another
 * app's and are not concerned.
 */
const SUPERSEDED =
  "Another creator connected this Shopify store to Selfie Studio after you, and Shopify keeps only one connection per store and app, so yours stopped working. Ask them to disconnect it, then connect again.";

export async function up(db: AnyDb): Promise<void> {
  await sql`
    UPDATE integrations SET is_active = 0, last_error = ${SUPERSEDED}
    WHERE platform = 'shopify' AND method = 'oauth' AND is_active = 1 AND shop_domain IS NOT NULL
      AND EXISTS (
        SELECT 1 FROM integrations later
        WHERE later.platform = 'shopify' AND later.method = 'oauth' AND later.is_active = 1
          AND later.shop_domain = integrations.shop_domain AND later.id <> integrations.id
          AND (later.updated_at > integrations.updated_at
            OR (later.updated_at = integrations.updated_at AND later.id > integrations.id))
      )
  `.execute(db);
  await db.schema
    .createIndex("integrations_one_shopify_connection_per_store")
    .unique()
    .on("integrations")
    .column("shop_domain")
    .where(sql.ref("platform"), "=", "shopify")
    .where(sql.ref("method"), "=", "oauth")
    .where(sql.ref("is_active"), "=", 1)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("integrations_one_shopify_connection_per_store").execute();
}
