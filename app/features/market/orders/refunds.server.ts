import { ZodError } from "zod";
import type { OrderRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { queueMail } from "~/features/mail/public.server";
import { recordAuditEntry, STRIPE_ACTOR } from "~/features/audit/public.server";
import {
  restoreSharesForUndoneRefund,
  reverseSharesForRefund,
  type ReversedShare,
} from "~/features/payouts/public.server";
import { itemsOfOrder } from "~/features/market/orders/orders.server";
import { renderRefundNoticeMail } from "~/features/market/orders/refund-notice-mail.server";
import { renderShareReversedMail } from "~/features/market/orders/share-reversed-mail.server";
import { lockedRows } from "~/infra/sql-dialect.server";

/**
 * Refunds, whichever way they come: the admin's refund button (the provider
 * is asked first, then this records it), Stripe's `charge.refunded` webhook
 * (a refund made in Stripe's dashboard, or the echo of the admin's), and a
 * lost dispute. Each names the order's refunded total so far, not an amount
 * to add, and the order row moves only forward (`... WHERE refunded_cents <
 * total`): of two callers with the same total (the admin's request and the
 * webhook, at the same moment) exactly one records it, and a replay records
 * nothing.
 *
 * Every change of an order's refunded total (recording a refund, undoing
 * one, a dispute's loss or its reversal) first reads the order through
 * lockOrderForRefund, which holds its row until the transaction ends
 * (FOR UPDATE on PostgreSQL; SQLite runs one writing transaction at a time):
 * so the amount each one records, and what the refund notice, the audit log
 * and the shares say, is counted from the total the one before stored, never
 * from a total another transaction was about to change.
 *
 * In the transaction that records it: the order's refunded total, its status
 * ('refunded' once the whole total came back, which ends its downloads and
 * license; a partial refund leaves them), each share's part of it less the
 * order's tax (sharesPartOfRefund; payouts),
 * the buyer's refund notice, each creator's notice of what it reversed of
 * their share, an `order.refund` row of the audit log, and, for a refund of
 * the whole order, its buyer's open refund request marked `refunded` (however
 * the refund came: the admin's approval, the Orders view, Stripe).
 */
export interface RefundRecord {
  /** The order's refunded total, in cents (at most what was paid). */
  refundedTotalCents: number;
  reason: string;
  now: Date;
  /** Who refunded, for the audit log: the admin's id; a refund Stripe reported is `stripe`. */
  actorId?: string;
  /** Whether the creators whose shares it reverses are told (default yes; not for a sale refunded as it was paid). */
  tellCreators?: boolean;
  /** Why, in one sentence their notice carries (a buyer's request, a fraud warning); none otherwise. */
  creatorReason?: string;
}

export type RefundOutcome =
  | { applied: true; order: OrderRow; amountCents: number }
  | { applied: false; order: OrderRow | undefined };

/** Statuses whose payment can be refunded: paid, disputed (Stripe's dashboard, a lost dispute), and refunded in part. */
const REFUNDABLE: OrderRow["status"][] = ["paid", "disputed", "refunded"];

/** The order, its row held by the caller's transaction until it ends (see above). */
export function lockOrderForRefund(trx: DB, orderId: string): Promise<OrderRow | undefined> {
  return lockedRows(
    trx,
    trx.selectFrom("orders").selectAll().where("id", "=", orderId),
  ).executeTakeFirst();
}

export async function recordRefund(
  trx: DB,
  orderId: string,
  record: RefundRecord,
): Promise<RefundOutcome> {
  const order = await lockOrderForRefund(trx, orderId);
  if (!order || !REFUNDABLE.includes(order.status)) return { applied: false, order };
  const target = Math.min(Math.max(0, Math.floor(record.refundedTotalCents)), order.total_cents);
  const stamp = record.now.toISOString();
  const full = target >= order.total_cents;
  const updated = await trx
    .updateTable("orders")
    .set({
      refunded_cents: target,
      refunded_at: stamp,
      refund_reason: record.reason,
      updated_at: stamp,
      ...(full ? { status: "refunded" as const } : {}),
    })
    .where("id", "=", orderId)
    .where("refunded_cents", "<", target)
    .returningAll()
    .executeTakeFirst();
  if (!updated) return { applied: false, order };
  const reversed = await reverseSharesForRefund(
    trx,
    orderId,
    sharesPartOfRefund(order, target),
    record.now,
  );
  if (full) await closeRefundRequestOf(trx, orderId, record);
  await queueRefundNotice(trx, updated, target - order.refunded_cents, record.now);
  if (record.tellCreators !== false) {
    await queueShareReversedNotices(trx, updated, reversed, record.now, record.creatorReason);
  }
  await recordAuditEntry(trx, {
    actorId: record.actorId ?? STRIPE_ACTOR,
    action: "order.refund",
    subjectId: orderId,
    detail: {
      amountCents: target - order.refunded_cents,
      refundedTotalCents: target,
      reason: record.reason,
    },
    now: record.now,
  });
  return { applied: true, order: updated, amountCents: target - order.refunded_cents };
}

/**
 * What of an order's refunded total comes out of the creators' shares and the
 * platform's fees; the rest is its tax, given back with it (docs/decisions/102).
 * In proportion (rounded down) to the order's part before tax, so a partial
 * refund gives back its part of the tax too; a full refund gives back exactly
 * the shares and fees (total - tax) and the whole tax.
 */
export function sharesPartOfRefund(
  order: Pick<OrderRow, "total_cents" | "tax_cents">,
  refundedTotalCents: number,
): number {
  if (order.tax_cents <= 0 || order.total_cents <= 0) return refundedTotalCents;
  const untaxed = order.total_cents - order.tax_cents;
  if (refundedTotalCents >= order.total_cents) return untaxed;
  return Math.floor((Math.max(0, refundedTotalCents) * untaxed) / order.total_cents);
}

/** The order's open refund request, if any, is settled by this refund of the whole order. */
async function closeRefundRequestOf(trx: DB, orderId: string, record: RefundRecord): Promise<void> {
  await trx
    .updateTable("refund_requests")
    .set({
      status: "refunded",
      decided_at: record.now.toISOString(),
      decided_by: record.actorId && record.actorId !== STRIPE_ACTOR ? record.actorId : null,
    })
    .where("order_id", "=", orderId)
    .where("status", "=", "requested")
    .execute();
}

async function queueRefundNotice(
  trx: DB,
  order: OrderRow,
  amountCents: number,
  now: Date,
): Promise<void> {
  const items = await itemsOfOrder(trx, order.id);
  const message = renderRefundNoticeMail({
    customerName: order.customer_name,
    orderId: order.id,
    refundedAt: order.refunded_at ?? now.toISOString(),
    amountCents,
    refundedTotalCents: order.refunded_cents,
    totalCents: order.total_cents,
    items: items.map((item) => ({ title: item.title, style: item.style })),
    testMode: order.provider === "test",
  });
  try {
    await queueMail(trx, { to: order.customer_email, ...message, now });
  } catch (error) {
    // A message that could never be sent must not undo the refund.
    if (!(error instanceof ZodError)) throw error;
    console.warn(`Order ${order.id}: the refund notice could not be queued: ${error.message}`);
  }
}

/**
 * Tells each creator whose share this refund reversed: the items (by sale
 * reference) and the amount of their share taken back. Erased and banned
 * accounts get nothing.
 */
async function queueShareReversedNotices(
  trx: DB,
  order: OrderRow,
  reversed: ReversedShare[],
  now: Date,
  reason: string | undefined,
): Promise<void> {
  if (reversed.length === 0) return;
  const items = await itemsOfOrder(trx, order.id);
  const creators = await trx
    .selectFrom("users")
    .select(["id", "email", "first_name"])
    .where(
      "id",
      "in",
      reversed.map((share) => share.creatorId),
    )
    .where("erased_at", "is", null)
    .where("banned", "=", 0)
    .execute();
  for (const creator of creators) {
    const theirs = reversed.filter((share) => share.creatorId === creator.id);
    const message = renderShareReversedMail({
      creatorName: creator.first_name,
      refundedAt: order.refunded_at ?? now.toISOString(),
      items: theirs.map((share) => {
        const item = items.find((candidate) => candidate.id === share.orderItemId);
        return {
          saleReference: share.orderItemId,
          title: item?.title ?? "",
          style: item?.style ?? "",
          reversedCents: share.reversedCents,
        };
      }),
      testMode: order.provider === "test",
      reason: reason ?? null,
    });
    try {
      await queueMail(trx, { to: creator.email, ...message, now });
    } catch (error) {
      // A message that could never be sent must not undo the refund.
      if (!(error instanceof ZodError)) throw error;
      console.warn(
        `Order ${order.id}: a creator's refund notice could not be queued: ${error.message}`,
      );
    }
  }
}

/**
 * Gives back `amountCents` of an order's recorded refunds, in the caller's
 * transaction (a refund that failed after it was recorded, a lost dispute won
 * on appeal): the refunded total goes down, an order refunded in full is paid
 * again (its downloads and license come back), and each share gets back its
 * part (restoreSharesForUndoneRefund). The caller makes it happen once.
 */
export async function undoRefund(
  trx: DB,
  orderId: string,
  undo: { amountCents: number; reason: string; now: Date },
): Promise<number> {
  const order = await lockOrderForRefund(trx, orderId);
  if (!order) return 0;
  const amount = Math.min(order.refunded_cents, Math.max(0, Math.floor(undo.amountCents)));
  if (amount === 0) return 0;
  const target = order.refunded_cents - amount;
  const stamp = undo.now.toISOString();
  await trx
    .updateTable("orders")
    .set({
      refunded_cents: target,
      updated_at: stamp,
      ...(target === 0 ? { refunded_at: null, refund_reason: null } : {}),
      ...(order.status === "refunded" && target < order.total_cents
        ? { status: "paid" as const }
        : {}),
    })
    .where("id", "=", orderId)
    .execute();
  await restoreSharesForUndoneRefund(trx, orderId, sharesPartOfRefund(order, target), undo.now);
  await recordAuditEntry(trx, {
    actorId: STRIPE_ACTOR,
    action: "order.refund_undone",
    subjectId: orderId,
    detail: { amountCents: amount, refundedTotalCents: target, reason: undo.reason },
    now: undo.now,
  });
  return amount;
}

/**
 * A refund that failed after it was recorded (Stripe's charge.refund.updated
 * or refund.failed with status failed): undone once per refund id, however
 * many events report it.
 */
export async function undoFailedRefund(
  trx: DB,
  orderId: string,
  refund: { id: string; amountCents: number; now: Date },
): Promise<boolean> {
  const inserted = await trx
    .insertInto("undone_refunds")
    .values({
      refund_id: refund.id,
      order_id: orderId,
      amount_cents: refund.amountCents,
      undone_at: refund.now.toISOString(),
    })
    .onConflict((oc) => oc.column("refund_id").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
  await undoRefund(trx, orderId, {
    amountCents: refund.amountCents,
    reason: "Refund failed",
    now: refund.now,
  });
  return true;
}
