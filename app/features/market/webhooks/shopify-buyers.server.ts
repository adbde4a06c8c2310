import type { DB } from "~/infra/db.server";
import { ERASED_BUYER_NAME, erasedBuyerEmail } from "~/features/market/creator-erasure.server";

/**
 * What is kept of Shopify buyers (the email and name on the orders delivered
 * for a creator's store, shopify-sales.server.ts), for the Shopify card and
 * Shopify's customers/* compliance requests.
 */

/** How many lines of a creator's Shopify orders could not be delivered for want of the buyer's email, and the latest. */
export async function undeliveredShopifySales(
  db: DB,
  creatorId: string,
): Promise<{ count: number; latestAt: string | null }> {
  const row = await db
    .selectFrom("shopify_sales")
    .select((eb) => [eb.fn.countAll<number>().as("count"), eb.fn.max("created_at").as("latest")])
    .where("creator_id", "=", creatorId)
    .where("outcome", "=", "no_buyer_email")
    .executeTakeFirst();
  return { count: Number(row?.count ?? 0), latestAt: row?.latest ?? null };
}

/**
 * Shopify's customers/redact for a store: the buyer details of the orders of
 * ours made from the named Shopify orders are forgotten (the amounts, files
 * and licences stay, as for an erased account). Answers how many orders.
 */
export async function forgetShopifyBuyer(
  trx: DB,
  args: { shop: string; shopifyOrderIds: string[]; customerId: string; now: Date },
): Promise<number> {
  if (args.shopifyOrderIds.length === 0) return 0;
  const result = await trx
    .updateTable("orders")
    .set({
      customer_name: ERASED_BUYER_NAME,
      customer_email: erasedBuyerEmail(`shopify-${args.customerId}`),
      customer_company: null,
      updated_at: args.now.toISOString(),
    })
    .where("provider", "=", "shopify")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("shopify_sales")
        .select("order_id")
        .where("shop_domain", "=", args.shop)
        .where("shopify_order_id", "in", args.shopifyOrderIds)
        .where("order_id", "is not", null)
        .$narrowType<{ order_id: string }>(),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Shopify's customers/data_request: how many orders of ours hold details of the named Shopify orders' buyer. */
export async function shopifyOrdersHeld(
  db: DB,
  args: { shop: string; shopifyOrderIds: string[] },
): Promise<number> {
  if (args.shopifyOrderIds.length === 0) return 0;
  const row = await db
    .selectFrom("shopify_sales")
    .select((eb) => eb.fn.count<number>("order_id").distinct().as("count"))
    .where("shop_domain", "=", args.shop)
    .where("shopify_order_id", "in", args.shopifyOrderIds)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
