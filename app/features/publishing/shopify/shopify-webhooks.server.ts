import { z } from "zod";
import type { DB } from "~/infra/db.server";
import { isShopDomain } from "~/lib/shop-domain";
import { plainContext, type FeatureTies } from "~/infra/call-context.server";
import { invokeParsed } from "~/infra/procedure.server";
import { forgetShopifyBuyer, shopifyOrdersHeld } from "~/features/market/public.server";
import { deliverShopifySale } from "~/features/market/webhooks/shopify-sales.procedures.server";

type ShopifySaleLine = Parameters<typeof deliverShopifySale.run>[0]["input"]["lines"][number];

/**
 * What the app does with each webhook Shopify sends it (after the signature
 * check in the route's procedure):
 * - `app/uninstalled` and `shop/redact`: the store's access is gone (or its
 *   data must go): every connection to that store is deleted with its sealed
 *   tokens, and every product link to it (listing_platforms rows whose
 *   external_shop is that store) is cut: the product id and URL are cleared
 *   and the row shows `needs_auth` with a sentence saying why, so the creator
 *   sees "Needs connection" rather than a dead "Live" link. An uninstall
 *   triggered before the store's current connection was made (a late
 *   delivery after a reinstall) is recorded and ignored.
 * - `orders/paid`: each line whose product is one of our publications in that
 *   store is delivered to the buyer from the image's marketplace listing,
 *   exactly once per line (market's recordShopifySale; docs/decisions/073).
 * - `customers/data_request` and `customers/redact`: the only customer data
 *   kept is the buyer's email and name on the orders delivered from the
 *   store; redact forgets them on the named orders, a data request is
 *   recorded with how many orders hold them.
 * Each delivery is recorded by its webhook id and by the SHA-256 of its
 * body, and the records are kept (never swept: far beyond Shopify's 4-hour
 * retry window); a redelivery, or the same signed body under another webhook
 * id, is answered without acting twice. A late delivery is acted on: each
 * topic's action is idempotent.
 *
 * Only the body is signed (X-Shopify-Hmac-Sha256); the topic, store, webhook
 * id and time come in headers anyone can set. So the store is read from the
 * body where the payload names it, and the body must have the shape of the
 * topic it came under (readShopifyWebhookBody): a signed body of one topic
 * cannot be passed off as another's, nor one store's as another store's. An
 * order's payload names no store: its products are matched in the store the
 * header names, and Shopify's product ids are unique across stores, so a
 * header naming another store matches none of its lines.
 */

export const SHOPIFY_WEBHOOK_TOPICS = [
  "app/uninstalled",
  "customers/data_request",
  "customers/redact",
  "orders/paid",
  "shop/redact",
] as const;
export type ShopifyWebhookTopic = (typeof SHOPIFY_WEBHOOK_TOPICS)[number];

export function isShopifyWebhookTopic(value: unknown): value is ShopifyWebhookTopic {
  return typeof value === "string" && (SHOPIFY_WEBHOOK_TOPICS as readonly string[]).includes(value);
}

export const NO_CUSTOMER_DATA =
  "Selfie Studio holds no data about this customer: it keeps a store's buyers only on the orders it delivered for the store.";

export const UNINSTALL_BEFORE_RECONNECT =
  "Ignored: the store was connected again after this uninstall was triggered.";

export const UNINSTALLED_LINK_TEXT =
  "The Selfie Studio app was removed from this Shopify store, so the product link was dropped. Connect Shopify again and publish to list it there.";

/** A myshopify.com domain as Shopify writes it in a payload. */
const shopDomain = z.string().refine(isShopDomain);
const shopifyId = z.number().int().nonnegative();
/** The customer named by a customers/* request (only its id is relied on; the rest is never kept). */
const customer = z.looseObject({ id: shopifyId });
const complianceRequest = { shop_id: shopifyId, shop_domain: shopDomain };
/** A decimal amount as Shopify writes money ("12.00"). */
const money = z.string().regex(/^\d{1,9}(\.\d{1,3})?$/);
const optionalText = z.string().max(320).nullish();

/** The fields of an orders/paid payload the delivery relies on (Shopify's REST Order resource). */
const paidOrder = z
  .looseObject({
    id: shopifyId,
    name: optionalText,
    currency: z.string().regex(/^[A-Za-z]{3}$/),
    email: optionalText,
    contact_email: optionalText,
    customer: z
      .looseObject({ email: optionalText, first_name: optionalText, last_name: optionalText })
      .nullish(),
    line_items: z
      .array(
        z.looseObject({
          id: shopifyId,
          product_id: shopifyId.nullish(),
          quantity: z.number().int().positive(),
          price: money,
          price_set: z.looseObject({ shop_money: z.looseObject({ amount: money }) }).nullish(),
        }),
      )
      .max(500),
  })
  .refine((body) => !("shop_domain" in body) && !("myshopify_domain" in body));
type PaidOrderPayload = z.infer<typeof paidOrder>;

/**
 * The fields each topic's payload must have (others may come and are
 * ignored). app/uninstalled carries the Shop resource, whose store is
 * `myshopify_domain` (`domain` can be the store's own web address); the
 * compliance topics carry `shop_domain`. shop/redact is told apart from the
 * customers/* requests by carrying no customer, and app/uninstalled from all
 * three by having `myshopify_domain` and no `shop_domain`. orders/paid
 * carries the Order resource: line items and no store.
 */
const PAYLOADS = {
  "app/uninstalled": z
    .looseObject({ id: shopifyId, myshopify_domain: shopDomain })
    .refine((body) => !("shop_domain" in body) && !("line_items" in body)),
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
  "orders/paid": paidOrder,
} satisfies Record<ShopifyWebhookTopic, z.ZodType>;

/**
 * The store a signed payload is about (null for an order, whose payload names
 * none) and the payload, when it has the shape of `topic`'s; null when it
 * does not (a body of another topic, or not Shopify's).
 */
export function readShopifyWebhookBody(
  topic: ShopifyWebhookTopic,
  body: unknown,
): { shop: string | null; payload: Record<string, unknown> } | null {
  const parsed = PAYLOADS[topic].safeParse(body);
  if (!parsed.success) return null;
  const fields = parsed.data as { myshopify_domain?: string; shop_domain?: string };
  const shop = fields.myshopify_domain ?? fields.shop_domain ?? null;
  if (!shop && topic !== "orders/paid") return null;
  return { shop, payload: parsed.data as Record<string, unknown> };
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

/** Shopify's numeric ids as we keep them (text). */
const idsOf = (values: unknown[]): string[] =>
  values.filter((value) => typeof value === "number" && Number.isInteger(value)).map(String);

/** Cents of a decimal amount ("12.5" → 1250), without floating point. */
function centsOf(amount: string): number {
  const [whole, fraction = ""] = amount.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0").slice(0, 2));
}

/**
 * The lines of a paid order whose product is one of our publications in
 * `shop`: the creator and image each belongs to, and what the buyer paid.
 */
async function ourLines(db: DB, shop: string, order: PaidOrderPayload): Promise<ShopifySaleLine[]> {
  const byProduct = new Map(
    order.line_items
      .filter((line) => line.product_id != null)
      .map((line) => [`gid://shopify/Product/${line.product_id}`, line] as const),
  );
  if (byProduct.size === 0) return [];
  const publications = await db
    .selectFrom("listing_platforms")
    .select(["external_id", "user_id", "stylized_image_id"])
    .where("platform", "=", "shopify")
    .where("external_shop", "=", shop)
    .where("external_id", "in", [...byProduct.keys()])
    .execute();
  const publicationOf = new Map(publications.map((row) => [row.external_id, row]));
  return order.line_items.flatMap((line) => {
    const publication =
      line.product_id != null
        ? publicationOf.get(`gid://shopify/Product/${line.product_id}`)
        : null;
    if (!publication) return [];
    const unit = centsOf(line.price_set?.shop_money.amount ?? line.price);
    return [
      {
        lineItemId: String(line.id),
        creatorId: publication.user_id,
        stylizedImageId: publication.stylized_image_id,
        priceCents: unit * line.quantity,
      },
    ];
  });
}

/** The buyer's address as an orders/paid payload may carry it (each is protected customer data). */
function buyerEmailOf(order: PaidOrderPayload): string | null {
  return order.email || order.contact_email || order.customer?.email || null;
}

async function deliverPaidOrder(
  db: DB,
  shop: string,
  order: PaidOrderPayload,
  now: Date,
  ties: FeatureTies,
): Promise<string> {
  const lines = await ourLines(db, shop, order);
  if (lines.length === 0) return "No line of this order is a Selfie Studio publication.";
  const name =
    [order.customer?.first_name, order.customer?.last_name].filter(Boolean).join(" ") || null;
  const result = await invokeParsed(
    deliverShopifySale,
    null,
    {
      shop,
      shopifyOrderId: String(order.id),
      orderName: order.name ?? null,
      buyerEmail: buyerEmailOf(order),
      buyerName: name,
      currency: order.currency,
      lines,
    },
    // No request of a visitor stands behind it: no client, and the procedure builds no URL of its own.
    plainContext("http://localhost", { db, now, ties }),
  );
  const { delivered, no_buyer_email, no_listing, already } = result.counts;
  const parts = [
    delivered
      ? `delivered ${delivered} line${delivered === 1 ? "" : "s"} (order ${result.orderId})`
      : null,
    no_buyer_email
      ? `${no_buyer_email} not delivered: Shopify sent no buyer email (protected customer data)`
      : null,
    no_listing ? `${no_listing} not delivered: the image is no longer listed` : null,
    already ? `${already} delivered before` : null,
  ].filter(Boolean);
  return `Order ${order.id}: ${parts.join("; ")}.`;
}

/** Whether the store was connected (again) after `triggeredAt`: an uninstall from before is not about this connection. */
async function connectedSince(db: DB, shop: string, triggeredAt: Date): Promise<boolean> {
  const row = await db
    .selectFrom("integrations")
    .select("id")
    .where("platform", "=", "shopify")
    .where("shop_domain", "=", shop)
    .where("connected_at", ">", triggeredAt.toISOString())
    .executeTakeFirst();
  return Boolean(row);
}

export async function handleShopifyWebhook(
  db: DB,
  args: {
    topic: ShopifyWebhookTopic;
    shop: string;
    /** The payload, as readShopifyWebhookBody read it. */
    payload: Record<string, unknown>;
    webhookId: string;
    bodySha256: string;
    /** When Shopify triggered it (X-Shopify-Triggered-At): retries keep the first time. */
    triggeredAt: Date;
    now: Date;
    /** What features hand each other, for the procedure an order's delivery runs. */
    ties: FeatureTies;
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
      if (await connectedSince(db, args.shop, args.triggeredAt)) {
        outcome = UNINSTALL_BEFORE_RECONNECT;
        break;
      }
    // falls through: the uninstall is about the current connection
    case "shop/redact": {
      const { connections, links } = await forgetShopifyStore(db, args.shop, args.now);
      outcome = `Removed ${connections} connection${connections === 1 ? "" : "s"} and ${links} product link${links === 1 ? "" : "s"}.`;
      break;
    }
    case "orders/paid":
      outcome = await deliverPaidOrder(
        db,
        args.shop,
        args.payload as PaidOrderPayload,
        args.now,
        args.ties,
      );
      break;
    case "customers/redact": {
      const customerId = String((args.payload.customer as { id: number }).id);
      const forgotten = await db.transaction().execute((trx) =>
        forgetShopifyBuyer(trx, {
          shop: args.shop,
          shopifyOrderIds: idsOf(args.payload.orders_to_redact as unknown[]),
          customerId,
          now: args.now,
        }),
      );
      outcome = forgotten
        ? `Forgot the buyer's email and name on ${forgotten} order${forgotten === 1 ? "" : "s"} delivered for this store.`
        : NO_CUSTOMER_DATA;
      break;
    }
    case "customers/data_request": {
      const held = await shopifyOrdersHeld(db, {
        shop: args.shop,
        shopifyOrderIds: idsOf(args.payload.orders_requested as unknown[]),
      });
      outcome = held
        ? `Selfie Studio holds this customer's email and name on ${held} order${held === 1 ? "" : "s"} it delivered for this store (what was delivered, when and for how much); the merchant gets them from support.`
        : NO_CUSTOMER_DATA;
      break;
    }
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
