import type { OrderItemRow, OrderRow, ShopifySaleOutcome } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { newId } from "~/infra/ids.server";
import { issueDownloadGrants } from "~/features/market/orders/download-grants.server";
import { queueReceipt } from "~/features/market/orders/fulfillment.server";
import { activeListingForStylizedImage } from "~/features/market/catalog/listings.server";
import { NO_PAYMENT_EVENTS_YET, untaxedAmounts } from "~/features/market/orders/orders.server";
import { recordSale } from "~/features/payouts/public.server";

/**
 * A sale made in a creator's own Shopify store, delivered by us (Shopify has
 * no file delivery of its own; docs/decisions/073). Each line of a paid
 * Shopify order whose product is one of our publications gets one
 * `shopify_sales` row, unique by the store and Shopify's line item id, written
 * with ON CONFLICT DO NOTHING in the same transaction as everything it leads
 * to: only the call that inserted the row delivers the line, so a retried
 * delivery, the same order delivered again, or two deliveries at once deliver
 * it exactly once.
 *
 * A delivered line becomes an item of an order of ours with provider
 * `shopify` (paid at once: Shopify took the payment), sold from the image's
 * marketplace listing as the marketplace sells it: its clean file, a download
 * grant, the licence page, and the receipt mailed to the buyer with the link
 * to their library. The ledger records the sale made elsewhere (recordSale
 * with soldElsewhere): the whole price is the creator's, no fee is ours and
 * nothing is owed through us.
 *
 * A line is recorded and not delivered when Shopify sent no buyer email (the
 * app lacks protected customer data access to it: the Shopify card says so)
 * or the image has no active marketplace listing any more.
 */

export interface ShopifySaleLine {
  /** Shopify's line item id. */
  lineItemId: string;
  creatorId: string;
  stylizedImageId: string;
  /** What the buyer paid for the line in the store (price × quantity), in cents. */
  priceCents: number;
}

export interface ShopifyPaidOrder {
  shop: string;
  /** Shopify's order id. */
  shopifyOrderId: string;
  /** The order's name the buyer knows it by ("#1001"), when given. */
  orderName: string | null;
  /** The buyer's email; null when Shopify withheld it (protected customer data). */
  buyerEmail: string | null;
  buyerName: string | null;
  /** The store's currency (ISO code). */
  currency: string;
  lines: ShopifySaleLine[];
}

export interface ShopifySaleResult {
  /** Our order holding what was delivered now (null when nothing was). */
  orderId: string | null;
  counts: Record<ShopifySaleOutcome | "already", number>;
}

export async function recordShopifySale(
  trx: DB,
  paid: ShopifyPaidOrder,
  now: Date,
): Promise<ShopifySaleResult> {
  const stamp = now.toISOString();
  const counts: ShopifySaleResult["counts"] = {
    delivered: 0,
    no_buyer_email: 0,
    no_listing: 0,
    already: 0,
  };
  const email = paid.buyerEmail?.trim().toLowerCase() || null;
  const deliver: { saleId: string; line: ShopifySaleLine; listing: ListingFields }[] = [];
  for (const line of paid.lines) {
    const found = await activeListingForStylizedImage(trx, line.stylizedImageId);
    const listing = found && found.user_id === line.creatorId ? found : undefined;
    const outcome: ShopifySaleOutcome = !listing
      ? "no_listing"
      : !email
        ? "no_buyer_email"
        : "delivered";
    const saleId = newId();
    const inserted = await trx
      .insertInto("shopify_sales")
      .values({
        id: saleId,
        shop_domain: paid.shop,
        shopify_order_id: paid.shopifyOrderId,
        line_item_id: line.lineItemId,
        creator_id: line.creatorId,
        listing_id: outcome === "delivered" ? (listing?.id ?? null) : null,
        order_id: null,
        outcome,
        created_at: stamp,
      })
      .onConflict((conflict) => conflict.columns(["shop_domain", "line_item_id"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) {
      counts.already += 1;
      continue;
    }
    counts[outcome] += 1;
    if (outcome === "delivered" && listing) deliver.push({ saleId, line, listing });
  }
  if (deliver.length === 0 || !email) return { orderId: null, counts };

  const order: OrderRow = {
    id: newId(),
    checkout_session_hash: null,
    license_id: newId(),
    provider: "shopify",
    status: "paid",
    customer_name: paid.buyerName?.trim() || email,
    customer_email: email,
    customer_company: null,
    // The shop took the payment and any tax on it.
    ...untaxedAmounts(deliver.reduce((sum, { line }) => sum + line.priceCents, 0)),
    currency: paid.currency.toLowerCase(),
    failure_reason: null,
    created_at: stamp,
    updated_at: stamp,
    paid_at: stamp,
    ...NO_PAYMENT_EVENTS_YET,
  };
  await trx.insertInto("orders").values(order).execute();
  const items: OrderItemRow[] = deliver.map(({ line, listing }, position) => ({
    id: newId(),
    position,
    order_id: order.id,
    listing_id: listing.id,
    creator_id: line.creatorId,
    title: listing.title,
    style: listing.style,
    price_cents: line.priceCents,
    file_key: listing.file_key,
    file_mime_type: listing.file_mime_type,
    created_at: stamp,
    bundle_id: null,
    // A shop's sale delivers the Standard licence (decision 101).
    license_type: "standard",
    discount_cents: 0,
    discount_code_id: null,
  }));
  await trx.insertInto("order_items").values(items).execute();
  await trx
    .updateTable("shopify_sales")
    .set({ order_id: order.id })
    .where(
      "id",
      "in",
      deliver.map(({ saleId }) => saleId),
    )
    .execute();
  await recordSale(trx, { items, testMode: false, soldElsewhere: true, now });
  await issueDownloadGrants(trx, items, now);
  await queueReceipt(trx, order, items, now, {
    soldIn: `the Shopify store ${paid.shop}${paid.orderName ? ` (order ${paid.orderName})` : ""}`,
  });
  return { orderId: order.id, counts };
}

type ListingFields = NonNullable<Awaited<ReturnType<typeof activeListingForStylizedImage>>>;
