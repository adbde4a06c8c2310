import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import type { CallContext } from "~/infra/call-context.server";
import { badRequest, conflict } from "~/infra/errors.server";
import { CHECKOUT_RATE_LIMIT, throttle } from "~/infra/rate-limit.server";
import { checkoutProvider } from "~/infra/payments/select-provider.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { MAX_CART_ITEMS } from "~/lib/limits";
import { MISSING_INFORMATION } from "~/features/market/types";
import { LICENSE_TYPES, type LicenseType, licenseTypeOf } from "~/lib/license-terms";
import { customerInfoSchema, sessionIdSchema } from "~/features/market/checkout/checkout-schema";
import { cartContents } from "~/features/market/checkout/cart-contents.server";
import { enteredCodeSchema } from "~/features/market/discounts/discount-schema";
import { recordCartAdd } from "~/features/market/analytics/analytics.server";
import { visitorOf } from "~/features/market/analytics/listing-visitors.server";
import {
  cancelTestOrder,
  payTestOrder,
  startCheckout,
} from "~/features/market/checkout/checkout.server";
import { itemsOfOrder } from "~/features/market/orders/orders.server";
import { isReverseCharge } from "~/features/market/checkout/checkout-tax";
import { testOrderOfSession } from "~/features/market/checkout/order-refresh.server";

/** The cart, starting a checkout, and the built-in test checkout that stands in for Stripe's page. */

/** The cart's listings and bundles (entries `bundle:<id>`), priced from the database. */
export const viewCart = defineProcedure({
  name: "viewCart",
  access: "public",
  input: z.object({ listingIds: z.array(z.string()).max(MAX_CART_ITEMS) }),
  run: ({ input, ctx }) => cartContents(ctx.db, input.listingIds, ctx.origin),
});

/**
 * POST /cart's add: a live listing added to a cart counts for its creator's
 * analytics once per visitor (the signed-in user, else the client address),
 * listing and day (UTC), as views do, at most CART_ADDS_COUNTED_PER_VISITOR_DAY
 * listings per visitor and day; never the creator's own. Unknown or withdrawn listings count nothing.
 */
export const countCartAdd = defineProcedure({
  name: "countCartAdd",
  access: "public",
  input: z.object({ listingId: z.string().min(1).max(64) }),
  async run({ input, user, ctx }) {
    const visitor = visitorOf({ user, clientIp: ctx.clientIp, now: ctx.now });
    return { counted: await recordCartAdd(ctx.db, input.listingId, visitor, ctx.now) };
  },
});

const cartItemSchema = z
  .object({
    imageId: z.string().min(1).max(100).optional(),
    image: z.object({ id: z.string().min(1).max(100) }).optional(),
    /** A bundle, bought whole (its listings at their parts of the bundle's price). */
    bundleId: z.string().min(1).max(100).optional(),
    /** The licence tier of an image bought on its own (decision 101); Standard when left out. A bundle sells Standard only. */
    licenseType: z
      .enum(LICENSE_TYPES, 'licenseType must be "standard", "extended" or "exclusive"')
      .optional(),
    // Accepted for compatibility with clients that send it, and ignored: the price comes from the database.
    price: z.unknown().optional(),
  })
  .refine(
    (item) => Boolean(item.imageId || item.image?.id) !== Boolean(item.bundleId),
    "Each cart item needs an imageId or image.id, or a bundleId",
  )
  .refine(
    (item) => !item.bundleId || !item.licenseType || item.licenseType === "standard",
    "A bundle is sold with the Standard license only",
  );

/**
 * Starts a checkout with the configured provider (Stripe, else the built-in
 * test checkout) for the listings named, and answers where to pay. Public;
 * prices come from the database; limited per client address.
 * POST /api/create-checkout-session sends the listings and the customer as
 * JSON; the checkout form of /cart and the marketplace dialog sends the
 * customer's fields, and the route adds the listings of the cart cookie.
 */
export const checkout = defineProcedure({
  name: "checkout",
  access: "public",
  input: z.object({
    cartItems: z
      .array(cartItemSchema, "Your cart is empty")
      .min(1, "Your cart is empty")
      .max(MAX_CART_ITEMS, `A cart holds at most ${MAX_CART_ITEMS} images`),
    customerInfo: customerInfoSchema.optional(),
    /** A discount code (docs/decisions/103): a 400 when it takes nothing off the cart. */
    discountCode: enteredCodeSchema,
  }),
  async run({ input, ctx }) {
    if (!input.customerInfo) {
      throw badRequest(MISSING_INFORMATION.description, {
        customerInfo: [MISSING_INFORMATION.description],
      });
    }
    await throttle(ctx, CHECKOUT_RATE_LIMIT);
    const singles = input.cartItems.filter((item) => !item.bundleId);
    const licenseTypes: Record<string, LicenseType> = {};
    for (const item of singles)
      licenseTypes[(item.imageId ?? item.image?.id)!] = item.licenseType ?? "standard";
    const started = await startCheckout(ctx.db, checkoutProvider(ctx.config), {
      listingIds: singles.map((item) => (item.imageId ?? item.image?.id)!),
      licenseTypes,
      bundleIds: input.cartItems.flatMap((item) => (item.bundleId ? [item.bundleId] : [])),
      customer: input.customerInfo,
      origin: ctx.origin,
      now: ctx.now,
      currency: ctx.config.CURRENCY,
      ...(input.discountCode ? { discountCode: input.discountCode } : {}),
      tax: {
        enabled: ctx.config.TAX === "on",
        platformCountry: ctx.config.STRIPE_PLATFORM_COUNTRY,
      },
    });
    return { url: started.url, sessionId: started.sessionId };
  },
});

/**
 * Once Stripe is configured, orders left over from the built-in test checkout
 * can no longer be paid or cancelled there: the page says so and its buttons
 * change nothing. (A paid one still shows its downloads.)
 */
export const TEST_CHECKOUT_CLOSED =
  "This test checkout is closed: the store now takes real payments. Start again from your cart.";

function testCheckoutClosed(ctx: CallContext): boolean {
  return Boolean(ctx.config.STRIPE_SECRET_KEY);
}

/** The order behind a test session that its page's buttons may still pay or cancel: 409 once Stripe is configured. */
async function openTestOrder(ctx: CallContext, sessionId: string) {
  const order = await testOrderOfSession(ctx.db, sessionId);
  if (testCheckoutClosed(ctx)) throw conflict(TEST_CHECKOUT_CLOSED);
  return order;
}

/** The built-in test checkout page: the order behind a test session, in cents (the page's loader shapes it). */
export const testCheckoutSession = defineProcedure({
  name: "testCheckoutSession",
  access: "public",
  input: sessionIdSchema,
  async run({ input, ctx }) {
    const order = await testOrderOfSession(ctx.db, input.sessionId);
    const items = await itemsOfOrder(ctx.db, order.id);
    return {
      sessionId: input.sessionId,
      status: order.status,
      /** Why a pending session cannot be paid here, or null. */
      closedReason:
        order.status === "pending" && testCheckoutClosed(ctx) ? TEST_CHECKOUT_CLOSED : null,
      customer: {
        name: order.customer_name,
        email: order.customer_email,
        company: order.customer_company,
      },
      subtotalCents: order.subtotal_cents,
      discountCents: order.discount_cents,
      taxCents: order.tax_cents,
      taxRateBps: order.tax_rate_bps,
      country: order.country,
      /** The buyer's VAT number when the reverse charge applied, else null. */
      reverseChargeVatNumber: isReverseCharge(order) ? order.vat_number : null,
      totalCents: order.total_cents,
      items: items.map((item) => ({
        id: item.id,
        title: item.title,
        style: item.style,
        priceCents: item.price_cents,
        licenseType: licenseTypeOf(item.license_type),
      })),
    };
  },
});

export const payTestCheckout = defineProcedure({
  name: "payTestCheckout",
  access: "public",
  input: sessionIdSchema,
  async run({ input, ctx }) {
    const order = await openTestOrder(ctx, input.sessionId);
    await payTestOrder(ctx.db, order, ctx.now);
    announceJobs();
    return { sessionId: input.sessionId };
  },
});

export const cancelTestCheckout = defineProcedure({
  name: "cancelTestCheckout",
  access: "public",
  input: sessionIdSchema,
  async run({ input, ctx }) {
    const order = await openTestOrder(ctx, input.sessionId);
    await cancelTestOrder(ctx.db, order, ctx.now);
    return { sessionId: input.sessionId };
  },
});
