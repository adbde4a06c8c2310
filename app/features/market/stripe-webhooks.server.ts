import type Stripe from "stripe";
import type { DB } from "~/infra/db.server";
import { remoteStateOf } from "~/infra/payments/stripe-checkout.server";
import { fulfillOrderInTransaction } from "~/features/market/fulfillment.server";
import { markOrderExpired, markOrderFailed } from "~/features/market/orders.server";
import { crashPoint } from "~/infra/crash-points.server";

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
 * Other event types are acknowledged and ignored.
 */
export type WebhookOutcome = "processed" | "duplicate" | "ignored";

const HANDLED = new Set([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
]);

export async function handleStripeEvent(db: DB, event: Stripe.Event, now: Date, origin?: string): Promise<WebhookOutcome> {
  if (!HANDLED.has(event.type)) return "ignored";
  return db.transaction().execute(async (trx) => {
    const recorded = await trx
      .insertInto("webhook_events")
      .values({ id: event.id, type: event.type, processed_at: now.toISOString() })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst();
    if (Number(recorded.numInsertedOrUpdatedRows ?? 0n) === 0) return "duplicate";
    crashPoint("webhook-event-recorded");

    const session = event.data.object as Stripe.Checkout.Session;
    const remote = remoteStateOf(session);
    const order = await trx
      .selectFrom("orders")
      .selectAll()
      .where((eb) =>
        remote.orderId
          ? eb.or([eb("id", "=", remote.orderId), eb("checkout_session_id", "=", session.id)])
          : eb("checkout_session_id", "=", session.id),
      )
      .executeTakeFirst();
    // Not one of ours (another app on the same Stripe account): acknowledged, nothing to do.
    if (!order || order.provider !== "stripe") return "ignored";

    const fulfill = async () => {
      const result = await fulfillOrderInTransaction(trx, order.id, { amountCents: remote.amountTotal, currency: remote.currency }, now, origin);
      if (result.outcome === "amount-mismatch") {
        console.warn(`Stripe event ${event.id}: amount ${remote.amountTotal} ${remote.currency} does not match order ${order.id}; not fulfilled`);
      }
    };
    switch (event.type) {
      case "checkout.session.completed":
        if (remote.paymentStatus === "paid" || remote.paymentStatus === "no_payment_required") await fulfill();
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
  });
}
