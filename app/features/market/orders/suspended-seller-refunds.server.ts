import { z } from "zod";
import type { OrderRow, PaymentProviderId } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { enqueueJob } from "~/infra/jobs/job-queue.server";
import type { JobHandler, JobRunContext } from "~/infra/jobs/job-worker.server";
import type { PaymentProvider } from "~/infra/payments/payment-provider.server";
import { recordRefund } from "~/features/market/orders/refunds.server";

/**
 * A payment that completes for an order with a listing of a creator banned
 * (or whose account was erased) since the checkout began (the buyer was on the payment page at the ban, or
 * a delayed payment method settled later) is refunded at once, in full: the
 * platform no longer sells that creator's work, and nothing of the order is
 * delivered. In the fulfilling transaction the order is recorded as paid and
 * refunded (its shares written and reversed: never sent), the buyer gets the
 * refund notice instead of the receipt, and, when money moved (Stripe), a
 * durable job gives it back at the provider.
 *
 * The job's idempotency key is the one the admin's first refund of the order
 * would use (`refund-<order>-0`): a retry, or any other first refund of the
 * order, refunds once. An early fraud warning refunds through the same job
 * (refundForFraudWarning below). Stripe's `charge.refunded` echo then records nothing
 * new (refunds are recorded by their running total).
 */

export const REFUND_PAYMENT_JOB = "market.refund-payment";
const REFUND_PAYMENT_ATTEMPTS = 8;

export const SELLER_SUSPENDED_REFUND_REASON =
  "A seller in this order is suspended, so the payment was refunded";

/** The refund's reason when a seller in the order erased their account since the checkout began. */
export const SELLER_ACCOUNT_CLOSED_REFUND_REASON =
  "A seller in this order has closed their account, so the payment was refunded";

/**
 * Why the order cannot be delivered, read in the fulfilling transaction: a
 * creator of one of its items is banned now, or has erased their account
 * (their listings left the marketplace and their files are going); null
 * when every seller is still selling.
 */
export async function sellerGoneReason(trx: DB, orderId: string): Promise<string | null> {
  const rows = await trx
    .selectFrom("order_items as i")
    .innerJoin("users as u", "u.id", "i.creator_id")
    .select(["u.banned", "u.erased_at"])
    .where("i.order_id", "=", orderId)
    .where((eb) => eb.or([eb("u.banned", "=", 1), eb("u.erased_at", "is not", null)]))
    .execute();
  if (rows.length === 0) return null;
  return rows.some((row) => row.erased_at !== null)
    ? SELLER_ACCOUNT_CLOSED_REFUND_REASON
    : SELLER_SUSPENDED_REFUND_REASON;
}

/** The paid order is refunded in full (in the fulfilling transaction, after its ledger rows were written). */
export function refundForSuspendedSeller(
  trx: DB,
  order: OrderRow,
  now: Date,
  reason: string = SELLER_SUSPENDED_REFUND_REASON,
): Promise<OrderRow> {
  // Only a card payment is given back at its provider; no creator named: a ban must never call off a buyer's refund.
  return refundWholeOrderAtOnce(trx, order, {
    now,
    reason,
    atProvider: order.provider === "stripe",
  });
}

/**
 * A paid order refunded in full at once, in the transaction that fulfils it
 * (a suspended seller, an Exclusive sold first, a discount code used up
 * first): recorded as any refund is, no creator told (none was told of the
 * sale), and, `atProvider`, the payment given back by the refund job (its key
 * the order's first refund's). Answers the order as it now is.
 */
export async function refundWholeOrderAtOnce(
  trx: DB,
  order: OrderRow,
  how: { now: Date; reason: string; atProvider: boolean },
): Promise<OrderRow> {
  const outcome = await recordRefund(trx, order.id, {
    refundedTotalCents: order.total_cents,
    reason: how.reason,
    now: how.now,
    tellCreators: false,
  });
  if (outcome.applied && how.atProvider && order.total_cents > 0) {
    await enqueueJob(trx, {
      kind: REFUND_PAYMENT_JOB,
      payload: { orderId: order.id },
      now: how.now,
      maxAttempts: REFUND_PAYMENT_ATTEMPTS,
    });
  }
  return outcome.applied ? outcome.order : order;
}

/** The order's refund reason when the card's issuer sent an early fraud warning. */
export function fraudWarningRefundReason(fraudType: string | undefined): string {
  return `An early fraud warning from the card's issuer${fraudType ? ` (${fraudType})` : ""}, so the payment was refunded at once`;
}

/** What each creator's share-reversed notice says of it. */
export const FRAUD_WARNING_CREATOR_REASON =
  "The card's issuer warned that the payment may be fraudulent (an early fraud warning), so it was refunded at once, before it could become a dispute.";

/**
 * Stripe's radar.early_fraud_warning.created for a paid order (in the
 * webhook's transaction, which records the event once): the rest of the
 * order is refunded in full at once. Recorded as any refund is (the order
 * `refunded`, its downloads and license ended, the shares reversed, the
 * buyer's refund notice, each creator's notice saying why, the audit log by
 * `stripe`), exactly once: a refund already recorded records nothing and
 * queues nothing. The money goes back at Stripe through the refund job, with
 * the idempotency key the admin's refund of the same rest would use
 * (`refund-<order>-<refunded so far>`), so the two can never both refund.
 * Answers whether it refunded.
 */
export async function refundForFraudWarning(
  trx: DB,
  order: OrderRow,
  warning: { fraudType?: string; now: Date },
): Promise<boolean> {
  const outcome = await recordRefund(trx, order.id, {
    refundedTotalCents: order.total_cents,
    reason: fraudWarningRefundReason(warning.fraudType),
    now: warning.now,
    creatorReason: FRAUD_WARNING_CREATOR_REASON,
  });
  if (!outcome.applied) return false;
  if (outcome.order.provider === "stripe" && outcome.amountCents > 0) {
    await enqueueJob(trx, {
      kind: REFUND_PAYMENT_JOB,
      payload: {
        orderId: order.id,
        fromCents: outcome.order.total_cents - outcome.amountCents,
      },
      now: warning.now,
      maxAttempts: REFUND_PAYMENT_ATTEMPTS,
    });
  }
  return true;
}

export interface RefundPaymentJobDeps {
  /** The provider that took the order's payment, or null when it is not configured (Stripe without a key). */
  paymentProvider: (id: PaymentProviderId) => PaymentProvider | null;
}

/** `fromCents`: what of the order was refunded before this refund (0 unless said): the refund gives back the rest. */
const payload = z
  .object({ orderId: z.string().min(1), fromCents: z.number().int().min(0).optional() })
  .strict();
type RefundPayload = z.infer<typeof payload>;

/** Gives the order's payment (what was left of it at `fromCents`) back at its provider (the ledger already records the refund). */
export async function runRefundPayment(
  deps: RefundPaymentJobDeps,
  { orderId, fromCents = 0 }: RefundPayload,
  context: Pick<JobRunContext, "db">,
): Promise<void> {
  const order = await context.db
    .selectFrom("orders")
    .selectAll()
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (!order || order.total_cents - fromCents <= 0) return;
  const provider = deps.paymentProvider(order.provider);
  if (!provider)
    throw new Error(
      `The ${order.provider} payment provider is not configured; order ${order.id} cannot be refunded yet`,
    );
  await provider.refund({
    orderId: order.id,
    paymentIntentId: order.payment_intent_id,
    amountCents: order.total_cents - fromCents,
    idempotencyKey: `refund-${order.id}-${fromCents}`,
  });
}

export function refundPaymentJobHandler(deps: RefundPaymentJobDeps): JobHandler<RefundPayload> {
  return {
    parse: (value) => payload.parse(value),
    run: (value, context) => runRefundPayment(deps, value, context),
    timeoutMs: 2 * 60_000,
  };
}
