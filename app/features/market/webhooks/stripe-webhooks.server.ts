import type Stripe from "stripe";
import { z } from "zod";
import type { OrderRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { remoteStateOf } from "~/infra/payments/stripe-checkout.server";
import { fulfillOrderInTransaction } from "~/features/market/orders/fulfillment.server";
import {
  checkoutSessionHash,
  markOrderExpired,
  markOrderFailed,
  recordChargeOfOrder,
} from "~/features/market/orders/orders.server";
import { recordRefund, undoFailedRefund } from "~/features/market/orders/refunds.server";
import { refundForFraudWarning } from "~/features/market/orders/suspended-seller-refunds.server";
import {
  closeDispute,
  openDispute,
  reinstateDispute,
  updateDispute,
} from "~/features/market/orders/disputes.server";
import { applyStripeAccountUpdate } from "~/features/payouts/public.server";
import { crashPoint } from "~/infra/crash-points.server";
import { badRequest } from "~/infra/errors.server";
import type { StripeEndpoint } from "~/features/market/webhooks/stripe-webhook-routing.server";

/**
 * Handles a verified Stripe event. The event id is recorded in the same
 * transaction as its effect: a replay finds the id and changes nothing, and
 * an effect that fails rolls the id back so Stripe's retry runs it again.
 *
 * - checkout.session.completed: fulfilled when payment_status is paid (or no
 *   payment was needed); an unpaid completion is a delayed payment method, the
 *   order stays pending until one of the two async events below.
 * - checkout.session.async_payment_succeeded: fulfilled.
 * - checkout.session.async_payment_failed: the order fails.
 * - checkout.session.expired: a pending order expires.
 * - charge.refunded: the charge's refunded total is recorded (refunds.server.ts),
 *   whether the refund was made in Stripe's dashboard or is the echo of ours.
 * - charge.dispute.created / .updated / .closed / .funds_reinstated:
 *   disputes.server.ts (appeals keep the funds withheld; a lost dispute won on
 *   appeal gives the loss back once).
 * - charge.refund.updated / refund.failed with the refund failed: the refund
 *   is undone once (refunds.server.ts).
 * - radar.early_fraud_warning.created: the card's issuer warned that the
 *   charge may be fraudulent. An actionable warning of a paid order refunds
 *   the rest of it in full at once, as any refund (the shares reversed, the
 *   creators told why; refundForFraudWarning), the money given back by the
 *   refund job; a warning Stripe calls not actionable (disputed or refunded
 *   already), or of an order not paid now, changes nothing.
 * - account.updated (Connect): a creator's payout account's state.
 * Other event types are acknowledged and ignored.
 *
 * Each event is handled as an event of the endpoint whose secret verified it
 * (stripe-webhook-routing.server.ts): the platform endpoint's checkout and
 * charge events, the Connect endpoint's account events. A checkout or charge
 * on a creator's connected account is not the platform's sale, and the
 * platform's own account.updated is not a creator's: both are ignored.
 */
export type WebhookOutcome = "processed" | "duplicate" | "ignored";

const CHECKOUT_EVENTS = new Set([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
]);
const CHARGE_EVENTS = new Set([
  "charge.refunded",
  "charge.dispute.created",
  "charge.dispute.updated",
  "charge.dispute.closed",
  "charge.dispute.funds_reinstated",
  "charge.refund.updated",
  "refund.failed",
]);
const ACCOUNT_EVENTS = new Set(["account.updated"]);
const RADAR_EVENTS = new Set(["radar.early_fraud_warning.created"]);

/** The event types each endpoint's events are handled for. */
function handledBy(endpoint: StripeEndpoint, type: string): boolean {
  return endpoint === "platform"
    ? CHECKOUT_EVENTS.has(type) || CHARGE_EVENTS.has(type) || RADAR_EVENTS.has(type)
    : ACCOUNT_EVENTS.has(type);
}

export async function handleStripeEvent(
  db: DB,
  event: Stripe.Event,
  { endpoint, now }: { endpoint: StripeEndpoint; now: Date },
): Promise<WebhookOutcome> {
  if (!handledBy(endpoint, event.type)) return "ignored";
  // A connected account's event about another account is not that account's to send.
  if (
    ACCOUNT_EVENTS.has(event.type) &&
    (event.data.object as Stripe.Account).id !== event.account
  ) {
    throw badRequest("A connected account's account.updated event describes another account");
  }
  return db.transaction().execute(async (trx) => {
    const recorded = await trx
      .insertInto("webhook_events")
      .values({ id: event.id, type: event.type, processed_at: now.toISOString() })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst();
    if (Number(recorded.numInsertedOrUpdatedRows ?? 0n) === 0) return "duplicate";
    crashPoint("webhook-event-recorded");
    if (CHECKOUT_EVENTS.has(event.type)) return handleCheckoutEvent(trx, event, now);
    if (ACCOUNT_EVENTS.has(event.type)) {
      const { known } = await applyStripeAccountUpdate(
        trx,
        event.data.object as Stripe.Account,
        now,
      );
      return known ? "processed" : "ignored";
    }
    if (RADAR_EVENTS.has(event.type)) return handleEarlyFraudWarning(trx, event, now);
    return handleChargeEvent(trx, event, now);
  });
}

const stripeRef = z.union([
  z.string().min(1).max(255),
  z.looseObject({ id: z.string().min(1).max(255) }),
]);

/** Stripe's radar.early_fraud_warning, as much of it as is read. */
const earlyFraudWarning = z.looseObject({
  id: z.string().min(1).max(255),
  actionable: z.boolean().optional(),
  charge: stripeRef,
  payment_intent: stripeRef.nullable().optional(),
  fraud_type: z.string().max(100).optional(),
});

async function handleEarlyFraudWarning(
  trx: DB,
  event: Stripe.Event,
  now: Date,
): Promise<WebhookOutcome> {
  const parsed = earlyFraudWarning.safeParse(event.data.object);
  // Thrown inside the transaction: the event is not recorded, so a corrected delivery is acted on.
  if (!parsed.success) throw badRequest("Malformed early fraud warning");
  const warning = parsed.data;
  if (warning.actionable === false) return "ignored";
  const order = await orderOfCharge(trx, {
    chargeId: idOf(warning.charge),
    paymentIntentId: idOf(warning.payment_intent),
    orderId: null,
  });
  if (!order || order.status !== "paid") return "ignored";
  const refunded = await refundForFraudWarning(trx, order, {
    fraudType: warning.fraud_type,
    now,
  });
  return refunded ? "processed" : "ignored";
}

async function handleCheckoutEvent(
  trx: DB,
  event: Stripe.Event,
  now: Date,
): Promise<WebhookOutcome> {
  const session = event.data.object as Stripe.Checkout.Session;
  const remote = remoteStateOf(session);
  const order = await trx
    .selectFrom("orders")
    .selectAll()
    .where((eb) =>
      remote.orderId
        ? eb.or([
            eb("id", "=", remote.orderId),
            eb("checkout_session_hash", "=", checkoutSessionHash(session.id)),
          ])
        : eb("checkout_session_hash", "=", checkoutSessionHash(session.id)),
    )
    .executeTakeFirst();
  // Not one of ours (another app on the same Stripe account): acknowledged, nothing to do.
  if (!order || order.provider !== "stripe") return "ignored";

  const fulfill = async () => {
    const evidence = {
      amountCents: remote.amountTotal,
      currency: remote.currency,
      paymentIntentId: remote.paymentIntentId,
      taxCents: remote.amountTax,
      country: remote.customerCountry,
    };
    const result = await fulfillOrderInTransaction(trx, order.id, evidence, now);
    if (result.outcome === "amount-mismatch") {
      console.warn(
        `Stripe event ${event.id}: amount ${remote.amountTotal} ${remote.currency} does not match order ${order.id}; not fulfilled`,
      );
    }
  };
  switch (event.type) {
    case "checkout.session.completed":
      if (remote.paymentStatus === "paid" || remote.paymentStatus === "no_payment_required")
        await fulfill();
      break;
    case "checkout.session.async_payment_succeeded":
      await fulfill();
      break;
    case "checkout.session.async_payment_failed":
      await markOrderFailed(trx, order.id, "The payment failed", now);
      break;
    case "checkout.session.expired":
      await markOrderExpired(trx, order.id, "The checkout session expired", now);
      break;
  }
  return "processed";
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === "string" ? value : (value?.id ?? null);

/** The order a charge (or a dispute of it) paid for: by the charge, its PaymentIntent, or the order id in its metadata. */
async function orderOfCharge(
  trx: DB,
  charge: { chargeId: string | null; paymentIntentId: string | null; orderId: string | null },
): Promise<OrderRow | undefined> {
  const order = await trx
    .selectFrom("orders")
    .selectAll()
    .where("provider", "=", "stripe")
    .where((eb) =>
      eb.or([
        ...(charge.chargeId ? [eb("charge_id", "=", charge.chargeId)] : []),
        ...(charge.paymentIntentId ? [eb("payment_intent_id", "=", charge.paymentIntentId)] : []),
        ...(charge.orderId ? [eb("id", "=", charge.orderId)] : []),
      ]),
    )
    .executeTakeFirst();
  if (order && charge.chargeId && !order.charge_id) {
    await recordChargeOfOrder(trx, order.id, charge.chargeId);
  }
  return order;
}

async function handleChargeEvent(trx: DB, event: Stripe.Event, now: Date): Promise<WebhookOutcome> {
  if (event.type === "charge.refunded") {
    const charge = event.data.object as Stripe.Charge;
    const order = await orderOfCharge(trx, {
      chargeId: charge.id,
      paymentIntentId: idOf(charge.payment_intent),
      orderId: charge.metadata?.order_id ?? null,
    });
    if (!order) return "ignored";
    await recordRefund(trx, order.id, {
      refundedTotalCents: charge.amount_refunded,
      reason: "Refunded in Stripe",
      now,
    });
    return "processed";
  }
  if (event.type === "charge.refund.updated" || event.type === "refund.failed") {
    const refund = event.data.object as Stripe.Refund;
    if (refund.status !== "failed") return "ignored";
    const order = await orderOfCharge(trx, {
      chargeId: idOf(refund.charge),
      paymentIntentId: idOf(refund.payment_intent),
      orderId: refund.metadata?.order_id ?? null,
    });
    if (!order) return "ignored";
    await undoFailedRefund(trx, order.id, { id: refund.id, amountCents: refund.amount, now });
    return "processed";
  }
  const dispute = event.data.object as Stripe.Dispute;
  const order = await orderOfCharge(trx, {
    chargeId: idOf(dispute.charge),
    paymentIntentId: idOf(dispute.payment_intent),
    orderId: dispute.metadata?.order_id ?? null,
  });
  if (!order) return "ignored";
  const facts = { id: dispute.id, status: dispute.status, amountCents: dispute.amount };
  if (event.type === "charge.dispute.created") await openDispute(trx, order.id, facts, now);
  else if (event.type === "charge.dispute.updated") await updateDispute(trx, order.id, facts, now);
  else if (event.type === "charge.dispute.funds_reinstated")
    await reinstateDispute(trx, order.id, facts, now);
  else await closeDispute(trx, order.id, facts, now);
  return "processed";
}
