import type { OrderItemRow, OrderRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { HttpError, badRequest } from "~/infra/errors.server";
import type { PaymentProvider, RemoteSessionState } from "~/infra/payments/payment-provider.server";
import { publicMediaUrl } from "~/infra/signed-urls.server";
import type { CustomerInfo } from "~/features/market/checkout/checkout-schema";
import { testCheckoutTax } from "~/features/market/checkout/checkout-tax";
import { CHECKOUT_FAILED, STRIPE_MINIMUM_CENTS } from "~/features/market/types";
import { MAX_CART_ITEMS } from "~/lib/limits";
import { formatMoney } from "~/lib/money";
import { styleName } from "~/lib/styles";
import { LICENSES, licenseTypeOf, type LicenseType } from "~/lib/license-terms";
import { fulfillOrder } from "~/features/market/orders/fulfillment.server";
import {
  attachCheckoutSession,
  createPendingOrder,
  markOrderExpired,
  markOrderFailed,
} from "~/features/market/orders/orders.server";

/**
 * Starting a checkout: a pending order priced from the database, then a
 * session at the provider (Stripe's hosted page or the built-in test page).
 */
export interface StartedCheckout {
  orderId: string;
  sessionId: string;
  url: string;
}

export async function startCheckout(
  db: DB,
  provider: PaymentProvider,
  args: {
    listingIds: string[];
    /** Bundles bought whole (docs/decisions/098). */
    bundleIds?: string[];
    /** The licence tier of each listing bought on its own (decision 101); Standard when not named. */
    licenseTypes?: Record<string, LicenseType>;
    customer: CustomerInfo;
    origin: string;
    now: Date;
    currency?: string;
    /** TAX=on, and the platform's country (docs/decisions/102); no tax when left out. */
    tax?: { enabled: boolean; platformCountry: string };
    /** The discount code the buyer entered, if any (docs/decisions/103). */
    discountCode?: string;
  },
): Promise<StartedCheckout> {
  const ids = [...new Set(args.listingIds)];
  const bundleIds = [...new Set(args.bundleIds ?? [])];
  if (ids.length + bundleIds.length > MAX_CART_ITEMS) {
    throw badRequest(`A cart holds at most ${MAX_CART_ITEMS} images`, {
      cartItems: [`At most ${MAX_CART_ITEMS} images`],
    });
  }
  const { order, items, bundles } = await createPendingOrder(db, {
    provider: provider.id,
    customer: args.customer,
    listingIds: ids,
    bundleIds,
    licenseTypes: args.licenseTypes,
    now: args.now,
    currency: args.currency ?? "usd",
    ...(args.discountCode ? { discountCode: args.discountCode } : {}),
    // The test checkout charges VAT from its table; Stripe computes the tax on its page (automaticTax below).
    ...(provider.id === "test" && args.tax
      ? {
          tax: (taxableCents: number) =>
            testCheckoutTax({
              enabled: args.tax!.enabled,
              taxableCents,
              country: args.customer.country,
              vatNumber: args.customer.vatNumber,
              platformCountry: args.tax!.platformCountry,
            }),
        }
      : {}),
  });
  if (provider.id === "stripe" && order.total_cents < STRIPE_MINIMUM_CENTS) {
    await markOrderFailed(db, order.id, "The total is below the card minimum", args.now);
    throw badRequest(
      `Card payments need a total of at least ${formatMoney(STRIPE_MINIMUM_CENTS, order.currency)}.`,
    );
  }
  const previewsArePublic = args.origin.startsWith("https://");
  const previewKeys = await db
    .selectFrom("listings")
    .select(["id", "preview_key"])
    .where(
      "id",
      "in",
      items.map((item) => item.listing_id),
    )
    .execute();
  const previewOf = new Map(previewKeys.map((row) => [row.id, row.preview_key]));
  try {
    const session = await provider.createCheckoutSession({
      orderId: order.id,
      customerEmail: order.customer_email,
      currency: order.currency,
      origin: args.origin,
      automaticTax: Boolean(args.tax?.enabled),
      items: checkoutLines(items, bundles, order.currency).map((line) => {
        const preview = previewOf.get(line.listingId);
        return {
          title: line.title,
          style: line.style,
          priceCents: line.priceCents,
          ...(line.description ? { description: line.description } : {}),
          ...(previewsArePublic && preview
            ? { imageUrl: `${args.origin}${publicMediaUrl(preview)}` }
            : {}),
        };
      }),
    });
    await attachCheckoutSession(db, order.id, session, args.now);
    return { orderId: order.id, sessionId: session.sessionId, url: session.url };
  } catch (error) {
    await markOrderFailed(db, order.id, "The payment page could not be created", args.now);
    console.warn(
      `Checkout session for order ${order.id} failed:`,
      error instanceof Error ? error.message : error,
    );
    throw new HttpError(502, CHECKOUT_FAILED.description);
  }
}

/**
 * The provider's lines of an order: one per item bought on its own, and one
 * per bundle at the bundle's price (its items' parts add up to it), with the
 * first item's preview, so the buyer sees on the payment page the bundle they
 * chose at the price they were shown (docs/decisions/098).
 */
function checkoutLines(
  items: OrderItemRow[],
  bundles: { id: string; title: string; priceCents: number }[],
  currency: string,
): { listingId: string; title: string; style: string; priceCents: number; description?: string }[] {
  const lines: ReturnType<typeof checkoutLines> = [];
  const bundleLine = new Map<string, (typeof lines)[number]>();
  for (const item of items) {
    const bundle = item.bundle_id ? bundles.find((b) => b.id === item.bundle_id) : undefined;
    if (!bundle) {
      lines.push({
        listingId: item.listing_id,
        title: item.title,
        style: item.style,
        priceCents: item.price_cents - item.discount_cents,
        // The payment page names the licence tier bought (decision 101), and a discount taken off.
        description: `${styleName(item.style)} style. ${LICENSES[licenseTypeOf(item.license_type)].tier} commercial license, full-resolution download.${
          item.discount_cents > 0
            ? ` ${formatMoney(item.price_cents, currency)} less a discount code's ${formatMoney(item.discount_cents, currency)}.`
            : ""
        }`,
      });
      continue;
    }
    const line = bundleLine.get(bundle.id);
    if (line) {
      line.priceCents += item.price_cents - item.discount_cents;
      continue;
    }
    const count = items.filter((other) => other.bundle_id === bundle.id).length;
    const added = {
      listingId: item.listing_id,
      title: bundle.title,
      style: item.style,
      priceCents: item.price_cents - item.discount_cents,
      description: `A bundle of ${count} images. Standard commercial license, full-resolution downloads.`,
    };
    bundleLine.set(bundle.id, added);
    lines.push(added);
  }
  return lines;
}

/**
 * Brings an order in line with what the provider says about its session
 * (the success return and the payment status call this; the webhook does the
 * same from the event). Paid → fulfilled, exactly once; expired → expired.
 */
export async function syncOrderWithProvider(
  db: DB,
  order: OrderRow,
  remote: RemoteSessionState,
  now: Date,
): Promise<void> {
  if (remote.orderId && remote.orderId !== order.id) return;
  if (remote.paymentStatus === "paid" || remote.paymentStatus === "no_payment_required") {
    await fulfillOrder(
      db,
      order.id,
      {
        amountCents: remote.amountTotal,
        currency: remote.currency,
        paymentIntentId: remote.paymentIntentId,
        taxCents: remote.amountTax,
        country: remote.customerCountry,
      },
      now,
    );
  } else if (remote.status === "expired") {
    await markOrderExpired(db, order.id, "The checkout session expired", now);
  }
}

/** A test checkout session stays open as long as a Stripe one does by default. */
export const TEST_SESSION_HOURS = 24;

/** The built-in test checkout's Pay button: only a pending test order can be paid. */
export async function payTestOrder(db: DB, order: OrderRow, now: Date): Promise<void> {
  if (order.provider !== "test") throw badRequest("This order is not a test checkout");
  if (order.status === "paid") return;
  if (order.status !== "pending") throw badRequest("This checkout session is no longer open");
  if (now.getTime() - Date.parse(order.created_at) > TEST_SESSION_HOURS * 60 * 60 * 1000) {
    await markOrderExpired(db, order.id, "The checkout session expired", now);
    throw badRequest("This checkout session is no longer open");
  }
  await fulfillOrder(db, order.id, {}, now);
}

/** The test checkout's Cancel button: the session closes, like an expired Stripe session. */
export async function cancelTestOrder(db: DB, order: OrderRow, now: Date): Promise<void> {
  if (order.provider !== "test") throw badRequest("This order is not a test checkout");
  await markOrderExpired(db, order.id, "The buyer cancelled the checkout", now);
}
