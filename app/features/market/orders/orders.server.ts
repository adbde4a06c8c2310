import type { ListingRow, OrderItemRow, OrderRow, PaymentProviderId } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { publiclyListed } from "~/features/market/catalog/listing-visibility.server";
import { badRequest } from "~/infra/errors.server";
import { newId, sha256 } from "~/infra/ids.server";
import type { CustomerInfo } from "~/features/market/checkout/checkout-schema";
import { purchasableBundles } from "~/features/market/bundles/bundles.server";
import { inCartOrder } from "~/features/market/checkout/cart-availability.server";
import { NO_TAX, type OrderTax } from "~/features/market/checkout/checkout-tax";
import { discountForCart } from "~/features/market/discounts/discounts.server";
import type { LicenseType } from "~/lib/license-terms";
import { priceOfTier, tierNotOffered } from "~/features/market/catalog/license-tiers";

/**
 * Orders and their items. An order is made from listings read from the
 * database in the same transaction that writes it: the price charged is the
 * listing's price, whatever a client claimed.
 */

export type PurchasableListing = Pick<
  ListingRow,
  | "id"
  | "user_id"
  | "title"
  | "style"
  | "price_cents"
  | "extended_price_cents"
  | "exclusive_price_cents"
  | "file_key"
  | "file_mime_type"
  | "preview_key"
>;

/** The listings of a cart, all active and by creators who are not banned; otherwise a 400 naming the problem. */
export async function purchasableListings(
  db: DB,
  listingIds: string[],
): Promise<PurchasableListing[]> {
  const ids = [...new Set(listingIds)];
  if (ids.length === 0)
    throw badRequest("Your cart is empty", { cartItems: ["Your cart is empty"] });
  const rows = await db
    .selectFrom("listings as l")
    .innerJoin("users as u", "u.id", "l.user_id")
    .select([
      "l.id",
      "l.user_id",
      "l.title",
      "l.style",
      "l.price_cents",
      "l.extended_price_cents",
      "l.exclusive_price_cents",
      "l.file_key",
      "l.file_mime_type",
      "l.preview_key",
    ])
    .where("l.id", "in", ids)
    .where(publiclyListed)
    .execute();
  return inCartOrder(ids, new Map(rows.map((row) => [row.id, row])), "image");
}

export interface NewOrder {
  order: OrderRow;
  items: OrderItemRow[];
  /** The bundles bought, whose items name them (`bundle_id`). */
  bundles: { id: string; title: string; priceCents: number }[];
}

/** An order's payment, refund and dispute fields before Stripe (or a shop) has told anything of them. */
export const NO_PAYMENT_EVENTS_YET = {
  payment_intent_id: null,
  charge_id: null,
  refunded_cents: 0,
  refunded_at: null,
  refund_reason: null,
  dispute_id: null,
  dispute_status: null,
  disputed_at: null,
  dispute_lost_cents: 0,
} satisfies Partial<OrderRow>;

/** The amounts of an order with no discount and no tax of ours (a sale paid in a creator's Shopify store). */
export function untaxedAmounts(totalCents: number) {
  return {
    subtotal_cents: totalCents,
    discount_cents: 0,
    tax_cents: 0,
    tax_rate_bps: null,
    country: null,
    vat_number: null,
    total_cents: totalCents,
  } satisfies Partial<OrderRow>;
}

/**
 * Writes a pending order and its items in one transaction, re-reading the
 * listings and bundles inside it. A bundle is an item per listing, each priced
 * at its part of the bundle's price (docs/decisions/098). A listing can be
 * bought once per order: the same one on its own and in a bundle, or in two
 * bundles, is a 400.
 */
export async function createPendingOrder(
  db: DB,
  args: {
    provider: PaymentProviderId;
    customer: CustomerInfo;
    listingIds: string[];
    bundleIds?: string[];
    /** The licence tier of each listing bought on its own (decision 101); Standard when not named. */
    licenseTypes?: Record<string, LicenseType>;
    now: Date;
    /** The platform's settlement currency (CURRENCY). */ currency?: string;
    /** The order's tax from what it is charged on (the subtotal less the discount); none when left out. */
    tax?: (taxableCents: number) => OrderTax;
    /** A discount code the buyer entered (docs/decisions/103); a 400 when it takes nothing off. */
    discountCode?: string;
  },
): Promise<NewOrder> {
  return db.transaction().execute(async (trx) => {
    const bundleIds = args.bundleIds ?? [];
    const listings =
      args.listingIds.length > 0 || bundleIds.length === 0
        ? await purchasableListings(trx, args.listingIds)
        : [];
    const bundles = await purchasableBundles(trx, bundleIds);
    // Each listing at its price for the tier asked; a tier it does not offer is a 400 (decision 101).
    const lines: {
      listing: Omit<PurchasableListing, "extended_price_cents" | "exclusive_price_cents">;
      bundleId: string | null;
      licenseType: LicenseType;
      priceCents: number;
    }[] = listings.map((listing) => {
      const licenseType = args.licenseTypes?.[listing.id] ?? "standard";
      const priceCents = priceOfTier(listing, licenseType);
      if (priceCents === null) {
        const message = tierNotOffered(listing.title, licenseType);
        throw badRequest(message, { cartItems: [message] });
      }
      return { listing, bundleId: null, licenseType, priceCents };
    });
    const seen = new Set(listings.map((listing) => listing.id));
    for (const bundle of bundles) {
      for (const listing of bundle.listings) {
        if (seen.has(listing.id)) {
          const message = `"${listing.title}" is in your cart twice (on its own or in a bundle). Please remove one.`;
          throw badRequest(message, { cartItems: [message] });
        }
        seen.add(listing.id);
        // A bundle sells the Standard licence of each of its images.
        lines.push({
          listing,
          bundleId: bundle.id,
          licenseType: "standard",
          priceCents: listing.price_cents,
        });
      }
    }
    const stamp = args.now.toISOString();
    const subtotal = lines.reduce((sum, line) => sum + line.priceCents, 0);
    const taken = args.discountCode
      ? await discountForCart(trx, {
          code: args.discountCode,
          items: lines.map(({ listing, priceCents }) => ({
            listingId: listing.id,
            creatorId: listing.user_id,
            priceCents,
          })),
          now: args.now,
        })
      : null;
    const discount = taken?.totalCents ?? 0;
    const tax = args.tax?.(subtotal - discount) ?? {
      ...NO_TAX,
      country: args.customer.country ?? null,
    };
    const order: OrderRow = {
      id: newId(),
      checkout_session_hash: null,
      license_id: newId(),
      provider: args.provider,
      status: "pending",
      customer_name: args.customer.name,
      customer_email: args.customer.email.toLowerCase(),
      customer_company: args.customer.company ?? null,
      subtotal_cents: subtotal,
      discount_cents: discount,
      tax_cents: tax.taxCents,
      tax_rate_bps: tax.rateBps,
      country: tax.country,
      vat_number: tax.vatNumber,
      total_cents: subtotal - discount + tax.taxCents,
      currency: args.currency ?? "usd",
      failure_reason: null,
      created_at: stamp,
      updated_at: stamp,
      paid_at: null,
      ...NO_PAYMENT_EVENTS_YET,
    };
    await trx.insertInto("orders").values(order).execute();
    const items: OrderItemRow[] = lines.map(
      ({ listing, bundleId, licenseType, priceCents }, position) => ({
        id: newId(),
        position,
        order_id: order.id,
        listing_id: listing.id,
        creator_id: listing.user_id,
        title: listing.title,
        style: listing.style,
        price_cents: priceCents,
        file_key: listing.file_key,
        file_mime_type: listing.file_mime_type,
        created_at: stamp,
        bundle_id: bundleId,
        license_type: licenseType,
        discount_cents: taken?.itemDiscounts[position] ?? 0,
        discount_code_id: taken?.itemCodes[position] ?? null,
      }),
    );
    await trx.insertInto("order_items").values(items).execute();
    return {
      order,
      items,
      bundles: bundles.map(({ id, title, priceCents }) => ({ id, title, priceCents })),
    };
  });
}

/**
 * A checkout session id is a bearer key (the payment-status API answers the
 * order's downloads for it), so only its SHA-256 is stored, and orders are
 * found by that hash. The id itself, and the checkout address that contains
 * it, go to the buyer and are never written down.
 */
export function checkoutSessionHash(sessionId: string): string {
  return sha256(sessionId);
}

export async function attachCheckoutSession(
  db: DB,
  orderId: string,
  session: { sessionId: string },
  now: Date,
): Promise<void> {
  await db
    .updateTable("orders")
    .set({
      checkout_session_hash: checkoutSessionHash(session.sessionId),
      updated_at: now.toISOString(),
    })
    .where("id", "=", orderId)
    .execute();
}

export function findOrderBySessionId(db: DB, sessionId: string): Promise<OrderRow | undefined> {
  return db
    .selectFrom("orders")
    .selectAll()
    .where("checkout_session_hash", "=", checkoutSessionHash(sessionId))
    .executeTakeFirst();
}

/** The order whose license page this is (its own random id, not the order id). */
export function findOrderByLicenseId(db: DB, licenseId: string): Promise<OrderRow | undefined> {
  return db.selectFrom("orders").selectAll().where("license_id", "=", licenseId).executeTakeFirst();
}

export function findOrderById(db: DB, orderId: string): Promise<OrderRow | undefined> {
  return db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst();
}

export function itemsOfOrder(db: DB, orderId: string): Promise<OrderItemRow[]> {
  // In the order they were bought (the cart's order).
  return db
    .selectFrom("order_items")
    .selectAll()
    .where("order_id", "=", orderId)
    .orderBy("position")
    .execute();
}

/** A pending order ends as failed or expired, with the reason; answers whether it was still pending. */
async function endPendingOrder(
  db: DB,
  orderId: string,
  end: { status: "failed" | "expired"; reason: string; now: Date },
): Promise<boolean> {
  const result = await db
    .updateTable("orders")
    .set({ status: end.status, failure_reason: end.reason, updated_at: end.now.toISOString() })
    .where("id", "=", orderId)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A payment that failed: the order says why. A paid order never goes back. */
export function markOrderFailed(
  db: DB,
  orderId: string,
  reason: string,
  now: Date,
): Promise<boolean> {
  return endPendingOrder(db, orderId, { status: "failed", reason, now });
}

/** A checkout that was abandoned, cancelled or timed out. Only a pending order expires. */
export function markOrderExpired(
  db: DB,
  orderId: string,
  reason: string,
  now: Date,
): Promise<boolean> {
  return endPendingOrder(db, orderId, { status: "expired", reason, now });
}

/** Keeps the charge that paid the order (a transfer's source transaction), once: a charge already kept stays. */
export async function recordChargeOfOrder(
  db: DB,
  orderId: string,
  chargeId: string,
): Promise<void> {
  await db
    .updateTable("orders")
    .set({ charge_id: chargeId })
    .where("id", "=", orderId)
    .where("charge_id", "is", null)
    .execute();
}
