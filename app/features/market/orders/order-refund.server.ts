import type { PaymentProviderId } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { HttpError, conflict, notFound } from "~/infra/errors.server";
import type { PaymentProvider } from "~/infra/payments/payment-provider.server";
import { crashPoint } from "~/infra/crash-points.server";
import { findOrderById } from "~/features/market/orders/orders.server";
import { recordRefund } from "~/features/market/orders/refunds.server";
import {
  toAdminOrderViews,
  type AdminOrderView,
} from "~/features/market/orders/admin-orders.server";

/** What an admin's refund needs: the database, the clock, and the provider that took each order's payment. */
export interface OrderRefundDeps {
  db: DB;
  now: Date;
  /** The provider that made an order, or null when it is no longer configured on this server. */
  providerOf: (id: PaymentProviderId) => PaymentProvider | null;
}

/**
 * The rest of a paid order goes back to the buyer. The provider refunds first
 * (Stripe, with an idempotency key per order and amount, so a repeated request
 * refunds once); then the refund is recorded exactly once, whether this call
 * or Stripe's charge.refunded webhook gets there first (refunds.server.ts).
 * Answers the order as the admin's Orders view shows it; 404 for an unknown
 * order, 409 for one that is not paid or whose provider is gone, 502 when the
 * provider refuses (nothing changed).
 */
export async function refundPaidOrder(
  deps: OrderRefundDeps,
  request: {
    orderId: string;
    reason: string | undefined;
    actorId: string;
    /** Why, for the creators' notices (a buyer's request); none for the admin's own refund. */
    creatorReason?: string;
  },
): Promise<AdminOrderView> {
  const { db, now } = deps;
  const order = await findOrderById(db, request.orderId);
  if (!order) throw notFound("Order not found");
  if (order.status !== "paid")
    throw conflict(`Only a paid order can be refunded; this one is ${order.status}.`);
  if (order.provider === "shopify")
    throw conflict(
      "This order was paid in the creator's Shopify store, not here: it is refunded in that store.",
    );
  const provider = deps.providerOf(order.provider);
  if (!provider)
    throw conflict("This order was paid through Stripe, which is not configured on this server.");
  const amountCents = order.total_cents - order.refunded_cents;
  try {
    await provider.refund({
      orderId: order.id,
      paymentIntentId: order.payment_intent_id,
      amountCents,
      idempotencyKey: `refund-${order.id}-${order.refunded_cents}`,
    });
  } catch (error) {
    console.error(`Refund of order ${order.id} failed at ${order.provider}:`, error);
    throw new HttpError(
      502,
      "The payment provider did not accept the refund. Nothing was changed; please try again later.",
    );
  }
  await db.transaction().execute((trx) =>
    recordRefund(trx, order.id, {
      refundedTotalCents: order.total_cents,
      reason: request.reason || "Refunded by the admin",
      now,
      actorId: request.actorId,
      creatorReason: request.creatorReason,
    }),
  );
  crashPoint("refund-recorded");
  const [view] = await toAdminOrderViews(db, [(await findOrderById(db, order.id))!]);
  return view;
}
