import type { DB } from "~/infra/db.server";
import { holdShares, releaseShares } from "~/features/payouts/procedures.server";
import { recordRefund } from "~/features/market/refunds.server";

/**
 * Disputes (chargebacks) from Stripe's webhooks. While one is open the
 * order is 'disputed': its downloads are suspended and its shares held (an
 * owed share is not sent). Closed as won (or an inquiry closed without a
 * chargeback), the order is paid again and the shares are what they were;
 * lost, the disputed amount is refunded to the buyer by the bank and recorded
 * as a refund, which reverses the shares.
 */
export interface DisputeFacts {
  id: string;
  /** Stripe's dispute status: warning_needs_response, needs_response, under_review, won, lost, warning_closed, ... */
  status: string;
  amountCents: number;
}

const RESTORES = new Set(["won", "warning_closed"]);

export async function openDispute(trx: DB, orderId: string, dispute: DisputeFacts, now: Date): Promise<boolean> {
  const stamp = now.toISOString();
  const opened = await trx
    .updateTable("orders")
    .set({ status: "disputed", dispute_id: dispute.id, dispute_status: dispute.status, disputed_at: stamp, updated_at: stamp })
    .where("id", "=", orderId)
    .where("status", "=", "paid")
    .executeTakeFirst();
  if (Number(opened.numUpdatedRows) === 0) return false;
  await holdShares(trx, orderId);
  return true;
}

export async function closeDispute(trx: DB, orderId: string, dispute: DisputeFacts, now: Date): Promise<void> {
  const stamp = now.toISOString();
  const order = await trx.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst();
  if (!order) return;
  await trx.updateTable("orders").set({ dispute_id: dispute.id, dispute_status: dispute.status, updated_at: stamp }).where("id", "=", orderId).execute();
  if (order.status === "disputed") {
    await trx.updateTable("orders").set({ status: "paid", updated_at: stamp }).where("id", "=", orderId).where("status", "=", "disputed").execute();
    await releaseShares(trx, orderId, now);
  }
  if (dispute.status === "lost") {
    await recordRefund(trx, orderId, {
      refundedTotalCents: order.refunded_cents + dispute.amountCents,
      reason: "Dispute lost",
      now,
    });
  } else if (!RESTORES.has(dispute.status)) {
    console.warn(`Order ${orderId}: dispute ${dispute.id} closed as ${dispute.status}; treated as not lost`);
  }
}
