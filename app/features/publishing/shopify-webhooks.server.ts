import { z } from "zod";
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
 * Each delivery is recorded by its webhook id and by the SHA-256 of its
 * body; a redelivery, or the same signed body under another webhook id, is
 * answered without acting twice.
 *
 * Only the body is signed (X-Shopify-Hmac-Sha256); the topic, store, webhook
 * id and time come in headers anyone can set. So the store is read from the
 * body, and the body must have the shape of the topic it came under
 * (readShopifyWebhookBody): a signed body of one topic cannot be passed off
 * as another's, nor one store's as another store's.
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

/** A myshopify.com domain as Shopify writes it in a payload. */
const shopDomain = z.string().refine(isShopDomain);
const shopifyId = z.number().int().nonnegative();
/** The customer named by a customers/* request (only its id is relied on; the rest is never kept). */
const customer = z.looseObject({ id: shopifyId });
const complianceRequest = { shop_id: shopifyId, shop_domain: shopDomain };

/**
 * The fields each topic's payload must have (others may come and are
 * ignored). app/uninstalled carries the Shop resource, whose store is
 * `myshopify_domain` (`domain` can be the store's own web address); the
 * compliance topics carry `shop_domain`. shop/redact is told apart from the
 * customers/* requests by carrying no customer, and app/uninstalled from all
 * three by having `myshopify_domain` and no `shop_domain`.
 */
const PAYLOADS = {
  "app/uninstalled": z
    .looseObject({ id: shopifyId, myshopify_domain: shopDomain })
    .refine((body) => !("shop_domain" in body)),
  "shop/redact": z
    .looseObject(complianceRequest)
    .refine((body) => !("customer" in body) && !("myshopify_domain" in body)),
  "customers/redact": z.looseObject({
    ...complianceRequest,
    customer,
    orders_to_redact: z.array(z.unknown()),
  }),
  "customers/data_request": z.looseObject({
    ...complianceRequest,
    customer,
    orders_requested: z.array(z.unknown()),
    data_request: z.looseObject({ id: shopifyId }),
  }),
} satisfies Record<ShopifyWebhookTopic, z.ZodType>;

/**
 * The store a signed payload is about, when the payload has the shape of
 * `topic`'s; null when it does not (a body of another topic, or not Shopify's).
 */
export function readShopifyWebhookBody(
  topic: ShopifyWebhookTopic,
  body: unknown,
): { shop: string } | null {
  const parsed = PAYLOADS[topic].safeParse(body);
  if (!parsed.success) return null;
  const fields = parsed.data as { myshopify_domain?: string; shop_domain?: string };
  const shop = fields.myshopify_domain ?? fields.shop_domain;
  return shop ? { shop } : null;
}

/**
 * How long after Shopify triggered a webhook it is still acted on. Shopify
 * retries a failed delivery for hours with the original body and
 * X-Shopify-Triggered-At; past this the delivery is acknowledged and logged,
 * not acted on (a stale header is one a replay would bring).
 */
export const SHOPIFY_WEBHOOK_MAX_AGE_MS = 5 * 60 * 1000;
/** How far ahead of this server's clock X-Shopify-Triggered-At may be (clocks drift). */
export const SHOPIFY_WEBHOOK_CLOCK_SKEW_MS = 60 * 1000;

/** Whether a delivery triggered at `triggeredAt` is recent enough to act on at `now`. */
export function isFreshShopifyDelivery(triggeredAt: Date, now: Date): boolean {
  const age = now.getTime() - triggeredAt.getTime();
  return age <= SHOPIFY_WEBHOOK_MAX_AGE_MS && age >= -SHOPIFY_WEBHOOK_CLOCK_SKEW_MS;
}

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
  args: {
    topic: ShopifyWebhookTopic;
    shop: string;
    webhookId: string;
    bodySha256: string;
    now: Date;
  },
): Promise<ShopifyWebhookResult> {
  if (!isShopDomain(args.shop)) throw new Error("Not a myshopify.com domain");
  const seen = await db
    .selectFrom("shopify_webhook_receipts")
    .select("outcome")
    .where((eb) =>
      eb.or([eb("webhook_id", "=", args.webhookId), eb("body_sha256", "=", args.bodySha256)]),
    )
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
      body_sha256: args.bodySha256,
    })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  return { topic: args.topic, shop: args.shop, outcome, duplicate: false };
}
