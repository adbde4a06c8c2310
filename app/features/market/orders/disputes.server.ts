import type { DB } from "~/infra/db.server";
import { holdShares, releaseShares } from "~/features/payouts/public.server";
import {
  lockOrderForRefund,
  recordRefund,
  undoRefund,
} from "~/features/market/orders/refunds.server";

/**
 * Disputes (chargebacks) from Stripe's webhooks. While one is open the
 * order is 'disputed': its downloads are suspended and its shares held (an
 * owed share is not sent). Closed as won (or an inquiry closed without a
 * chargeback), the order is paid again and the shares are what they were;
 * lost, the disputed amount is refunded to the buyer by the bank and recorded
 * as a refund, which reverses the shares.
 *
 * A lost dispute may be appealed: its statuses appeal_needs_response and
 * appeal_under_review keep the funds withheld (nothing moves). Won on appeal
 * (charge.dispute.funds_reinstated, or the dispute closed as won after the
 * loss was recorded), the loss is given back once: the order is paid again
 * and the shares are restored (orders.dispute_lost_cents is the once-only mark).
 */
export interface DisputeFacts {
  id: string;
  /** Stripe's dispute status: warning_needs_response, needs_response, under_review, won, lost, warning_closed, ... */
  status: string;
  amountCents: number;
}

const RESTORES = new Set(["won", "warning_closed"]);
/** An appeal of a lost dispute: the funds stay withheld while it lasts. */
export const APPEAL_STATUSES = new Set(["appeal_needs_response", "appeal_under_review"]);

export async function openDispute(
  trx: DB,
  orderId: string,
  dispute: DisputeFacts,
  now: Date,
): Promise<boolean> {
  const stamp = now.toISOString();
  const opened = await trx
    .updateTable("orders")
    .set({
      status: "disputed",
      dispute_id: dispute.id,
      dispute_status: dispute.status,
      disputed_at: stamp,
      updated_at: stamp,
    })
    .where("id", "=", orderId)
    .where("status", "=", "paid")
    .executeTakeFirst();
  if (Number(opened.numUpdatedRows) === 0) return false;
  await holdShares(trx, orderId);
  return true;
}

export async function closeDispute(
  trx: DB,
  orderId: string,
  dispute: DisputeFacts,
  now: Date,
): Promise<void> {
  const stamp = now.toISOString();
  // Held until the transaction ends: the loss is added to the refunded total as it stands.
  const order = await lockOrderForRefund(trx, orderId);
  if (!order) return;
  await trx
    .updateTable("orders")
    .set({ dispute_id: dispute.id, dispute_status: dispute.status, updated_at: stamp })
    .where("id", "=", orderId)
    .execute();
  // Under appeal: the funds stay withheld, whatever the order's state.
  if (APPEAL_STATUSES.has(dispute.status)) return;
  // Won after the loss was recorded: won on appeal.
  if (dispute.status === "won" && order.dispute_lost_cents > 0) {
    await reinstateDispute(trx, orderId, dispute, now);
    return;
  }
  if (order.status === "disputed") {
    await trx
      .updateTable("orders")
      .set({ status: "paid", updated_at: stamp })
      .where("id", "=", orderId)
      .where("status", "=", "disputed")
      .execute();
    await releaseShares(trx, orderId, now);
  }
  if (dispute.status === "lost") {
    const outcome = await recordRefund(trx, orderId, {
      refundedTotalCents: order.refunded_cents + dispute.amountCents,
      reason: "Dispute lost",
      now,
    });
    if (outcome.applied)
      await trx
        .updateTable("orders")
        .set({ dispute_lost_cents: outcome.amountCents })
        .where("id", "=", orderId)
        .execute();
  } else if (!RESTORES.has(dispute.status)) {
    console.warn(
      `Order ${orderId}: dispute ${dispute.id} closed as ${dispute.status}; treated as not lost`,
    );
  }
}

/** A dispute's status changed (charge.dispute.updated): recorded; an appeal keeps everything as it is. */
export async function updateDispute(
  trx: DB,
  orderId: string,
  dispute: DisputeFacts,
  now: Date,
): Promise<void> {
  await trx
    .updateTable("orders")
    .set({ dispute_id: dispute.id, dispute_status: dispute.status, updated_at: now.toISOString() })
    .where("id", "=", orderId)
    .execute();
}

/**
 * A lost dispute won on appeal (charge.dispute.funds_reinstated): what the loss
 * took back is given back once. A win before any loss (funds reinstated after a
 * dispute closed as won) has nothing to give back.
 */
export async function reinstateDispute(
  trx: DB,
  orderId: string,
  dispute: DisputeFacts,
  now: Date,
): Promise<boolean> {
  const order = await trx
    .selectFrom("orders")
    .select("dispute_lost_cents")
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (!order || order.dispute_lost_cents <= 0) return false;
  const taken = await trx
    .updateTable("orders")
    .set({
      dispute_lost_cents: 0,
      dispute_id: dispute.id,
      dispute_status: dispute.status,
      updated_at: now.toISOString(),
    })
    .where("id", "=", orderId)
    .where("dispute_lost_cents", "=", order.dispute_lost_cents)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 0) return false;
  await undoRefund(trx, orderId, {
    amountCents: order.dispute_lost_cents,
    reason: "Dispute won on appeal",
    now,
  });
  return true;
}
