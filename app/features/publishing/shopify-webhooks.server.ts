import type { DB } from "~/infra/db.server";
import { isShopDomain } from "~/lib/shop-domain";

/**
 * What the app does with each webhook Shopify sends it (after the signature
 * check in the route's procedure):
 * - `app/uninstalled` and `shop/redact`: the store's access is gone (or its
 *   data must go): every connection to that store is deleted with its sealed
 *   tokens, and every product link to it (listing_platforms rows whose
 *   external_shop is that store) is cut: the product id and URL are cleared
 *   and the row shows `needs_auth` with a sentence saying why, so the creator
 *   sees "Needs connection" rather than a dead "Live" link.
 * - `customers/data_request` and `customers/redact`: the app keeps no data
 *   about a store's customers (it only creates products), so there is nothing
 *   to send or erase; the request is recorded, with that answer.
 * Each delivery is recorded by its webhook id; a redelivery is answered
 * without acting twice.
 */

export const SHOPIFY_WEBHOOK_TOPICS = [
  "app/uninstalled",
  "customers/data_request",
  "customers/redact",
  "shop/redact",
] as const;
export type ShopifyWebhookTopic = (typeof SHOPIFY_WEBHOOK_TOPICS)[number];

export function isShopifyWebhookTopic(value: unknown): value is ShopifyWebhookTopic {
  return typeof value === "string" && (SHOPIFY_WEBHOOK_TOPICS as readonly string[]).includes(value);
}

export const NO_CUSTOMER_DATA =
  "Selfie Studio holds no data about this store's customers: it only creates products in the store.";

export const UNINSTALLED_LINK_TEXT =
  "The Selfie Studio app was removed from this Shopify store, so the product link was dropped. Connect Shopify again and publish to list it there.";

export interface ShopifyWebhookResult {
  topic: ShopifyWebhookTopic;
  shop: string;
  outcome: string;
  duplicate: boolean;
}

/** Deletes a store's connections and cuts its product links. Answers how many of each. */
export async function forgetShopifyStore(
  db: DB,
  shop: string,
  now: Date,
): Promise<{ connections: number; links: number }> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom("integrations")
      .where("platform", "=", "shopify")
      .where("shop_domain", "=", shop)
      .executeTakeFirst();
    const cut = await trx
      .updateTable("listing_platforms")
      .set((eb) => ({
        status: "needs_auth",
        url: null,
        external_id: null,
        external_shop: null,
        last_error: UNINSTALLED_LINK_TEXT,
        // A job still running for the row records nothing over this.
        revision: eb("revision", "+", 1),
        updated_at: now.toISOString(),
      }))
      .where("platform", "=", "shopify")
      .where("external_shop", "=", shop)
      .executeTakeFirst();
    return { connections: Number(removed.numDeletedRows), links: Number(cut.numUpdatedRows) };
  });
}

export async function handleShopifyWebhook(
  db: DB,
  args: { topic: ShopifyWebhookTopic; shop: string; webhookId: string; now: Date },
): Promise<ShopifyWebhookResult> {
  if (!isShopDomain(args.shop)) throw new Error("Not a myshopify.com domain");
  const seen = await db
    .selectFrom("shopify_webhook_receipts")
    .select("outcome")
    .where("webhook_id", "=", args.webhookId)
    .executeTakeFirst();
  if (seen) return { topic: args.topic, shop: args.shop, outcome: seen.outcome, duplicate: true };

  let outcome: string;
  switch (args.topic) {
    case "app/uninstalled":
    case "shop/redact": {
      const { connections, links } = await forgetShopifyStore(db, args.shop, args.now);
      outcome = `Removed ${connections} connection${connections === 1 ? "" : "s"} and ${links} product link${links === 1 ? "" : "s"}.`;
      break;
    }
    case "customers/data_request":
    case "customers/redact":
      outcome = NO_CUSTOMER_DATA;
      break;
  }
  await db
    .insertInto("shopify_webhook_receipts")
    .values({
      webhook_id: args.webhookId,
      topic: args.topic,
      shop_domain: args.shop,
      outcome,
      received_at: args.now.toISOString(),
    })
    .onConflict((conflict) => conflict.column("webhook_id").doNothing())
    .execute();
  return { topic: args.topic, shop: args.shop, outcome, duplicate: false };
}
