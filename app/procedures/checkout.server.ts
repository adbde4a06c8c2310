import { z } from "zod";
import type { OrderRow } from "#db/schema";
import { defineProcedure } from "~/infra/procedure.server";
import type { CallContext } from "~/infra/call-context.server";
import { badRequest, conflict, notFound } from "~/infra/errors.server";
import { CHECKOUT_RATE_LIMIT, PAYMENT_STATUS_RATE_LIMIT, throttle } from "~/infra/rate-limit.server";
import { checkoutProvider, providerFor } from "~/infra/payments/select-provider.server";
import { StripeCheckoutProvider } from "~/infra/payments/stripe-checkout.server";
import { customerInfoSchema } from "~/lib/checkout-schema";
import type { CustomerInfo } from "~/lib/checkout-schema";
import { LICENSE_TYPE, MAX_CART_ITEMS, MISSING_INFORMATION } from "~/lib/market";
import { centsToPriceString } from "~/lib/money";
import { cancelTestOrder, payTestOrder, startCheckout, syncOrderWithProvider } from "~/services/checkout.server";
import { findOrderBySessionId, itemsOfOrder } from "~/services/orders.server";
import { paymentStatusOf, providerChecks } from "~/services/payment-status.server";
import { handleStripeEvent } from "~/services/stripe-webhooks.server";

/** Checkout, the test checkout, payment status and the Stripe webhook. */

const cartItemSchema = z
  .object({
    imageId: z.string().min(1).max(100).optional(),
    image: z.object({ id: z.string().min(1).max(100) }).optional(),
    licenseType: z.literal(LICENSE_TYPE, `licenseType must be "${LICENSE_TYPE}"`).optional(),
    // Accepted for compatibility with clients that send it, and ignored: the price comes from the database.
    price: z.unknown().optional(),
  })
  .refine((item) => item.imageId || item.image?.id, "Each cart item needs an imageId or image.id");

/** Starts a checkout with the configured provider (Stripe, else the built-in test checkout); limited per client address. */
function checkoutWith(ctx: CallContext, listingIds: string[], customer: CustomerInfo) {
  throttle(ctx, CHECKOUT_RATE_LIMIT);
  return startCheckout(ctx.db, checkoutProvider(ctx.config), {
    listingIds,
    customer,
    origin: ctx.origin,
    now: ctx.now,
  });
}

/** POST /api/create-checkout-session: public; prices come from the database. */
export const createCheckoutSession = defineProcedure({
  name: "createCheckoutSession",
  access: "public",
  input: z.object({
    cartItems: z
      .array(cartItemSchema, "Your cart is empty")
      .min(1, "Your cart is empty")
      .max(MAX_CART_ITEMS, `A cart holds at most ${MAX_CART_ITEMS} images`),
    customerInfo: customerInfoSchema.optional(),
  }),
  async run({ input, ctx }) {
    if (!input.customerInfo) {
      throw badRequest(MISSING_INFORMATION.description, { customerInfo: [MISSING_INFORMATION.description] });
    }
    const started = await checkoutWith(
      ctx,
      input.cartItems.map((item) => (item.imageId ?? item.image?.id)!),
      input.customerInfo,
    );
    return { url: started.url, sessionId: started.sessionId };
  },
});

/** The checkout form of /cart and the marketplace dialog: the cart comes from its cookie, which the route reads (ctx.cart). */
export const checkoutCart = defineProcedure({
  name: "checkoutCart",
  access: "public",
  input: customerInfoSchema,
  async run({ input, ctx }) {
    if (!ctx.cart) throw new Error("checkoutCart is called with the cart cookie's contents (ctx.cart)");
    return checkoutWith(ctx, [...ctx.cart], input);
  },
});

const sessionIdSchema = z.object({
  sessionId: z.string("Enter a checkout session id").trim().min(1, "Enter a checkout session id").max(300),
});

async function orderOrNotFound(ctx: CallContext, sessionId: string): Promise<OrderRow> {
  const order = await findOrderBySessionId(ctx.db, sessionId);
  if (!order) throw notFound("Checkout session not found");
  return order;
}

/** The order behind a session of the built-in test checkout (a Stripe session is not one: 404). */
async function testOrderOrNotFound(ctx: CallContext, sessionId: string): Promise<OrderRow> {
  const order = await orderOrNotFound(ctx, sessionId);
  if (order.provider !== "test") throw notFound("Checkout session not found");
  return order;
}

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

/**
 * A pending Stripe order asks Stripe how its session stands (the success
 * return and the status checks), so a buyer is served even before, or
 * without, the webhook. Polls ask at most once per order every
 * PROVIDER_CHECK_INTERVAL_MS and otherwise answer from the database; the
 * success return always asks. A Stripe outage leaves the order as it is.
 */
async function refreshedOrder(ctx: CallContext, sessionId: string, force: boolean): Promise<OrderRow> {
  const order = await orderOrNotFound(ctx, sessionId);
  if (order.status !== "pending" || order.provider !== "stripe") return order;
  const provider = providerFor(order.provider, ctx.config);
  if (!provider) return order;
  const ask = async () => {
    try {
      const remote = await provider.retrieveSession(sessionId);
      if (remote) await syncOrderWithProvider(ctx.db, order, remote, ctx.now);
    } catch (error) {
      console.warn(`Could not retrieve Stripe session ${sessionId}:`, error instanceof Error ? error.message : error);
    }
  };
  await providerChecks.check(order.id, ctx.now.getTime(), ask, { force });
  return orderOrNotFound(ctx, sessionId);
}

/** A payment status read, limited per client address; `force` asks the provider even within its interval. */
const paymentStatusRead = (name: string, force: boolean) =>
  defineProcedure({
    name,
    access: "public",
    input: sessionIdSchema,
    async run({ input, ctx }) {
      throttle(ctx, PAYMENT_STATUS_RATE_LIMIT);
      const order = await refreshedOrder(ctx, input.sessionId, force);
      return paymentStatusOf(ctx.db, order, ctx.origin);
    },
  });

/** GET /api/payment-status/{sessionId} and the payment monitor: polled, so the provider is asked at most once per interval. */
export const paymentStatus = paymentStatusRead("paymentStatus", false);

/** The buyer's return from the payment page (/marketplace?session_id=...&success=true): always asks the provider. */
export const checkoutReturnStatus = paymentStatusRead("checkoutReturnStatus", true);

/** The built-in test checkout page: the order behind a test session. */
export const testCheckoutSession = defineProcedure({
  name: "testCheckoutSession",
  access: "public",
  input: sessionIdSchema,
  async run({ input, ctx }) {
    const order = await testOrderOrNotFound(ctx, input.sessionId);
    const items = await itemsOfOrder(ctx.db, order.id);
    return {
      sessionId: input.sessionId,
      status: order.status,
      /** Why a pending session cannot be paid here, or null. */
      closedReason: order.status === "pending" && testCheckoutClosed(ctx) ? TEST_CHECKOUT_CLOSED : null,
      customer: { name: order.customer_name, email: order.customer_email, company: order.customer_company },
      total: centsToPriceString(order.total_cents),
      totalCents: order.total_cents,
      items: items.map((item) => ({ id: item.id, title: item.title, style: item.style, price: centsToPriceString(item.price_cents) })),
    };
  },
});

export const payTestCheckout = defineProcedure({
  name: "payTestCheckout",
  access: "public",
  input: sessionIdSchema,
  async run({ input, ctx }) {
    const order = await testOrderOrNotFound(ctx, input.sessionId);
    if (testCheckoutClosed(ctx)) throw conflict(TEST_CHECKOUT_CLOSED);
    await payTestOrder(ctx.db, order, ctx.now);
    return { sessionId: input.sessionId };
  },
});

export const cancelTestCheckout = defineProcedure({
  name: "cancelTestCheckout",
  access: "public",
  input: sessionIdSchema,
  async run({ input, ctx }) {
    const order = await testOrderOrNotFound(ctx, input.sessionId);
    if (testCheckoutClosed(ctx)) throw conflict(TEST_CHECKOUT_CLOSED);
    await cancelTestOrder(ctx.db, order, ctx.now);
    return { sessionId: input.sessionId };
  },
});

/** The envelope every Stripe event has (its `data.object` is read by the handlers; a session has a string id). */
const stripeEventShape = z
  .object({
    id: z.string().min(1).max(255),
    type: z.string().min(1).max(255),
    data: z.object({ object: z.looseObject({}) }),
  })
  .refine((event) => !event.type.startsWith("checkout.session.") || typeof event.data.object.id === "string");

/**
 * POST /api/webhooks/stripe: the raw body is verified against
 * STRIPE_WEBHOOK_SECRET before anything is read from it.
 */
export const receiveStripeWebhook = defineProcedure({
  name: "receiveStripeWebhook",
  access: "public",
  input: z.object({ payload: z.string(), signature: z.string().optional() }),
  async run({ input, ctx }) {
    const secret = ctx.config.STRIPE_WEBHOOK_SECRET;
    if (!secret) throw notFound("Stripe webhooks are not configured");
    if (!input.signature) throw badRequest("Missing Stripe-Signature header");
    let event;
    try {
      event = StripeCheckoutProvider.constructEvent(input.payload, input.signature, secret);
    } catch {
      throw badRequest("Invalid webhook signature");
    }
    // Signed is not the same as well formed: anything but an event object is refused, not a 500.
    if (!stripeEventShape.safeParse(event).success) throw badRequest("Malformed Stripe event");
    const outcome = await handleStripeEvent(ctx.db, event, ctx.now);
    return { received: true, outcome };
  },
});
