import type { OrderRow, PaymentProviderId } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { notFound } from "~/infra/errors.server";
import type { PaymentProvider } from "~/infra/payments/payment-provider.server";
import { findOrderBySessionId } from "~/features/market/orders/orders.server";
import { syncOrderWithProvider } from "~/features/market/checkout/checkout.server";
import { providerChecks } from "~/features/market/checkout/payment-status.server";

/** The order behind a checkout session; 404 when there is none. */
export async function orderOfSession(db: DB, sessionId: string): Promise<OrderRow> {
  const order = await findOrderBySessionId(db, sessionId);
  if (!order) throw notFound("Checkout session not found");
  return order;
}

/** The order behind a session of the built-in test checkout (a Stripe session is not one: 404). */
export async function testOrderOfSession(db: DB, sessionId: string): Promise<OrderRow> {
  const order = await orderOfSession(db, sessionId);
  if (order.provider !== "test") throw notFound("Checkout session not found");
  return order;
}

/** What a refresh needs: the database, the clock, and the provider that made each order. */
export interface OrderRefreshDeps {
  db: DB;
  now: Date;
  /** The provider that made an order, or null when it is no longer configured on this server. */
  providerOf: (id: PaymentProviderId) => PaymentProvider | null;
}

/**
 * A pending Stripe order asks Stripe how its session stands (the success
 * return and the status checks), so a buyer is served even before, or
 * without, the webhook. Polls ask at most once per order every
 * PROVIDER_CHECK_INTERVAL_MS and otherwise answer from the database; `force`
 * (the success return) always asks. A Stripe outage leaves the order as it
 * is. Answers the order as it stands afterwards and whether this call
 * brought it up to date with the provider (which may have queued its receipt).
 */
export async function refreshOrderOfSession(
  deps: OrderRefreshDeps,
  sessionId: string,
  force: boolean,
): Promise<{ order: OrderRow; synced: boolean }> {
  const { db, now } = deps;
  const order = await orderOfSession(db, sessionId);
  if (order.status !== "pending" || order.provider !== "stripe") return { order, synced: false };
  const provider = deps.providerOf(order.provider);
  if (!provider) return { order, synced: false };
  let synced = false;
  const ask = async () => {
    try {
      const remote = await provider.retrieveSession(sessionId);
      if (remote) {
        await syncOrderWithProvider(db, order, remote, now);
        synced = true;
      }
    } catch (error) {
      console.warn(
        `Could not retrieve Stripe session ${sessionId}:`,
        error instanceof Error ? error.message : error,
      );
    }
  };
  await providerChecks.check(order.id, now.getTime(), ask, { force });
  return { order: await orderOfSession(db, sessionId), synced };
}
