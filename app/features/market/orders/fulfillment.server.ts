import { ZodError } from "zod";
import type { OrderItemRow, OrderRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { issueDownloadGrants } from "~/features/market/orders/download-grants.server";
import { queueTransfersOfOrder, recordSale } from "~/features/payouts/public.server";
import { crashPoint } from "~/infra/crash-points.server";
import { getConfig } from "~/infra/config.server";
import { mailLinkOrigin } from "~/infra/configured-origin.server";
import { queueMail, queueMailWithinRecipientLimit } from "~/features/mail/public.server";
import { libraryUrl } from "~/features/market/library/library-token.server";
import { LICENSES, licenseEditionOf } from "~/lib/license-terms";
import { renderReceiptMail } from "~/features/market/orders/receipt-mail.server";
import {
  isReverseCharge,
  reverseChargeNote,
  taxLabel,
} from "~/features/market/checkout/checkout-tax";
import { renderSaleNoticeMail } from "~/features/market/orders/sale-notice-mail.server";
import {
  claimExclusiveLicences,
  refundForExclusiveTaken,
} from "~/features/market/orders/exclusive-sales.server";
import {
  CODE_USED_UP_REFUND_REASON,
  redeemCodesOfOrder,
  releaseCodes,
} from "~/features/market/discounts/discount-redemption.server";
import {
  refundForSuspendedSeller,
  sellerGoneReason,
} from "~/features/market/orders/suspended-seller-refunds.server";

/**
 * Fulfillment, the one function the Stripe webhook, the success return and the
 * test checkout all call. Exactly once rests on the database, not on timing:
 *
 * 1. In one transaction, the order moves to 'paid' with a conditional UPDATE
 *    (`... WHERE status IN ('pending', 'failed', 'expired')`: a paid, refunded
 *    or disputed order never moves back). SQLite runs one write transaction at a
 *    time, so of any number of concurrent or replayed calls exactly one sees
 *    the row change; the others see 0 rows and stop. On PostgreSQL the UPDATE
 *    waits for the row lock of a transaction that changed the order and, once
 *    that one committed, checks its WHERE again against the row as committed:
 *    the same one call sees the change. (A webhook event delivered many times
 *    at once stops earlier still: its id's insert into webhook_events waits
 *    for the first delivery's and then finds it.)
 * 2. The same transaction issues the download grants and writes the ledger.
 *    earnings.order_item_id and download_grants.order_item_id are UNIQUE, and
 *    the inserts are ON CONFLICT DO NOTHING, so even a second writer could not
 *    add a second row.
 * 3. The same transaction queues the transfer of each creator's share (when
 *    the creator has a ready payout account), the receipt to the buyer and one sale notice
 *    to each creator who sold in the order and is not banned (mail jobs), so
 *    they go exactly once per order: only the call that marked the order paid
 *    queues them, and only if that commits. The callers announce the jobs after
 *    their commit.
 * 4. An order with a listing of a creator banned (or erased) since its checkout began is
 *    refunded at once instead (suspended-seller-refunds.server.ts): its ledger
 *    rows are written and reversed in the same transaction, and nothing is
 *    delivered (no grants, no receipt, no sale notice, no transfer).
 * 5. An order with a listing already sold with an Exclusive licence (or whose
 *    Exclusive another buyer paid first) is refunded at once the same way
 *    (exclusive-sales.server.ts); an order that wins an Exclusive withdraws
 *    the listing in this transaction. Before that, each discount code the
 *    order used counts its use; one whose last use another order took first
 *    refunds this one the same way (discount-redemption.server.ts).
 * 6. If anything fails, the transaction rolls back and the order stays unpaid
 *    (Stripe retries the webhook; the return and the payment status retry too).
 *
 * The receipt's library link and the notices' dashboard link point at the
 * server's configured origin (configured-origin.server.ts), never at the
 * request that led here: whoever looks up a payment's status may write its
 * Host header. Without a configured origin those mails are not sent (logged).
 */

export interface PaymentEvidence {
  /** What the provider says was paid, in cents; refused when it is not the order's total. */
  amountCents?: number | null;
  currency?: string | null;
  /** Stripe's PaymentIntent that paid (kept on the order: refunds and transfers name it). */
  paymentIntentId?: string | null;
  /**
   * The tax the provider computed and charged on top of the order's subtotal
   * less its discount (Stripe Tax); the order then records it, and the paid
   * amount must be that sum (docs/decisions/102).
   */
  taxCents?: number | null;
  /** The buyer's country the provider collected (the billing address), ISO 3166-1 alpha-2. */
  country?: string | null;
}

export type FulfillmentOutcome =
  | { outcome: "fulfilled"; order: OrderRow }
  | { outcome: "already-paid"; order: OrderRow }
  | { outcome: "amount-mismatch"; order: OrderRow }
  | { outcome: "refunded-seller-suspended"; order: OrderRow }
  | { outcome: "refunded-exclusive-taken"; order: OrderRow }
  | { outcome: "refunded-code-used-up"; order: OrderRow }
  | { outcome: "unknown-order" };

export function fulfillOrder(
  db: DB,
  orderId: string,
  evidence: PaymentEvidence,
  now: Date,
): Promise<FulfillmentOutcome> {
  return db.transaction().execute((trx) => fulfillOrderInTransaction(trx, orderId, evidence, now));
}

/** The same, inside a transaction the caller holds (the webhook records its event id in it). */
export async function fulfillOrderInTransaction(
  trx: DB,
  orderId: string,
  evidence: PaymentEvidence,
  now: Date,
): Promise<FulfillmentOutcome> {
  const order = await trx
    .selectFrom("orders")
    .selectAll()
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (!order) return { outcome: "unknown-order" };
  if (order.status !== "pending" && order.status !== "failed" && order.status !== "expired") {
    // Paid by another path first (the success return, say): the PaymentIntent is still worth keeping.
    if (evidence.paymentIntentId && !order.payment_intent_id) {
      await trx
        .updateTable("orders")
        .set({ payment_intent_id: evidence.paymentIntentId })
        .where("id", "=", orderId)
        .where("payment_intent_id", "is", null)
        .execute();
    }
    return { outcome: "already-paid", order };
  }
  const providerTax = evidence.taxCents ?? null;
  // What was owed before tax (subtotal - discount), and the provider's tax on top of it.
  const totalCents =
    providerTax === null ? order.total_cents : order.total_cents - order.tax_cents + providerTax;
  const amountDiffers = evidence.amountCents != null && evidence.amountCents !== totalCents;
  const currencyDiffers =
    evidence.currency != null && evidence.currency.toLowerCase() !== order.currency;
  if (amountDiffers || currencyDiffers) return { outcome: "amount-mismatch", order };

  const stamp = now.toISOString();
  const paid = await trx
    .updateTable("orders")
    .set({
      status: "paid",
      paid_at: stamp,
      updated_at: stamp,
      failure_reason: null,
      ...(evidence.paymentIntentId ? { payment_intent_id: evidence.paymentIntentId } : {}),
      ...(providerTax === null
        ? {}
        : {
            tax_cents: providerTax,
            total_cents: totalCents,
            country: evidence.country?.toUpperCase() ?? order.country,
          }),
    })
    .where("id", "=", orderId)
    .where("status", "in", ["pending", "failed", "expired"])
    .returningAll()
    .executeTakeFirst();
  if (!paid) {
    const current = await trx
      .selectFrom("orders")
      .selectAll()
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    return { outcome: "already-paid", order: current };
  }

  crashPoint("order-marked-paid");
  const items = await trx
    .selectFrom("order_items")
    .selectAll()
    .where("order_id", "=", orderId)
    .execute();
  // A sale in the built-in test checkout: no money moved (not revenue on a production server).
  await recordSale(trx, { items, testMode: order.provider === "test", now });
  const sellerGone = await sellerGoneReason(trx, orderId);
  if (sellerGone) {
    return {
      outcome: "refunded-seller-suspended",
      order: await refundForSuspendedSeller(trx, paid, now, sellerGone),
    };
  }
  // A discount code counts this order's use, unless another order took its last use first.
  const codes = await redeemCodesOfOrder(trx, items);
  if (!codes.ok) {
    return {
      outcome: "refunded-code-used-up",
      order: await refundForExclusiveTaken(trx, paid, now, CODE_USED_UP_REFUND_REASON),
    };
  }
  // An image sold with an Exclusive licence first is sold to no one else (exclusive-sales.server.ts).
  if ((await claimExclusiveLicences(trx, items, now)).refused) {
    await releaseCodes(trx, codes.redeemed);
    return {
      outcome: "refunded-exclusive-taken",
      order: await refundForExclusiveTaken(trx, paid, now),
    };
  }
  await issueDownloadGrants(trx, items, now);
  // Each share goes to its creator now if they have a ready payout account; otherwise it is owed until they do.
  await queueTransfersOfOrder(trx, orderId, now);
  await queueReceipt(trx, paid, items, now);
  await queueSaleNotices(trx, paid, items, now);
  return { outcome: "fulfilled", order: paid };
}

/** Queues the buyer's receipt (also for a sale made in a creator's Shopify store, `soldIn` naming it). */
export async function queueReceipt(
  trx: DB,
  order: OrderRow,
  items: OrderItemRow[],
  now: Date,
  options: { soldIn?: string } = {},
): Promise<void> {
  const base = mailLinkOrigin(getConfig(), `Order ${order.id}: the receipt`);
  if (!base) return;
  const message = renderReceiptMail({
    customerName: order.customer_name,
    orderId: order.id,
    paidAt: order.paid_at ?? now.toISOString(),
    items: items.map((item) => ({
      title: item.title,
      style: item.style,
      priceCents: item.price_cents,
      licenseName: LICENSES[licenseEditionOf(item.license_type)].name,
    })),
    totalCents: order.total_cents,
    breakdown: {
      subtotalCents: order.subtotal_cents,
      discountCents: order.discount_cents,
      taxCents: order.tax_cents,
      taxLabel: taxLabel({ rateBps: order.tax_rate_bps, country: order.country }),
      reverseChargeNote:
        isReverseCharge(order) && order.vat_number ? reverseChargeNote(order.vat_number) : null,
    },
    testMode: order.provider === "test",
    libraryUrl: libraryUrl(base, order.customer_email, now),
    soldIn: options.soldIn,
  });
  // The address is whatever the buyer typed: the receipt counts toward the recipient's limit of such mail.
  await queueUnlessRefused(
    trx,
    order.id,
    "the receipt",
    { to: order.customer_email, ...message, now },
    { recipientLimit: true },
  );
}

/**
 * One sale notice per creator in the order, from what the ledger recorded for
 * it (each item's share and whether it was a test sale). A banned creator gets none.
 */
async function queueSaleNotices(
  trx: DB,
  order: OrderRow,
  items: OrderItemRow[],
  now: Date,
): Promise<void> {
  const origin = mailLinkOrigin(getConfig(), `Order ${order.id}: the sale notices`);
  if (!origin) return;
  const rows = await trx
    .selectFrom("earnings as e")
    .innerJoin("order_items as oi", "oi.id", "e.order_item_id")
    .innerJoin("users as u", "u.id", "e.creator_id")
    .select([
      "oi.id as item_id",
      "e.creator_id",
      "e.amount_cents",
      "e.test_mode",
      "oi.title",
      "oi.style",
      "oi.price_cents",
      "u.email",
      "u.first_name",
    ])
    .where("e.order_id", "=", order.id)
    .where("u.banned", "=", 0)
    .execute();
  // In the order's own item order, as the receipt lists them.
  const position = new Map(items.map((item, index) => [item.id, index]));
  rows.sort((a, b) => (position.get(a.item_id) ?? 0) - (position.get(b.item_id) ?? 0));
  const byCreator = new Map<string, typeof rows>();
  for (const row of rows)
    byCreator.set(row.creator_id, [...(byCreator.get(row.creator_id) ?? []), row]);
  const dashboardUrl = new URL("/dashboard", origin).toString();
  const testSalesExcluded = getConfig().isProduction;
  for (const [creatorId, sold] of byCreator) {
    const message = renderSaleNoticeMail({
      creatorName: sold[0].first_name,
      paidAt: order.paid_at ?? now.toISOString(),
      items: sold.map((row) => ({
        saleReference: row.item_id,
        title: row.title,
        style: row.style,
        priceCents: row.price_cents,
        shareCents: row.amount_cents,
      })),
      testMode: sold.some((row) => row.test_mode === 1),
      testSalesExcluded,
      dashboardUrl,
    });
    await queueUnlessRefused(trx, order.id, `the sale notice to creator ${creatorId}`, {
      to: sold[0].email,
      ...message,
      now,
    });
  }
}

async function queueUnlessRefused(
  trx: DB,
  orderId: string,
  what: string,
  mail: Parameters<typeof queueMail>[1],
  options: { recipientLimit?: boolean } = {},
): Promise<void> {
  try {
    if (!options.recipientLimit) {
      await queueMail(trx, mail);
    } else if ((await queueMailWithinRecipientLimit(trx, mail)) === null) {
      // The order is paid all the same; the buyer's library has it (and the purchase-complete screen showed it).
      console.warn(
        `Order ${orderId}: ${what} was not sent: its recipient had reached the hourly limit of mail anyone can trigger`,
      );
    }
  } catch (error) {
    // A message that could never be sent (refused before anything is queued) must not keep the order unpaid.
    if (!(error instanceof ZodError)) throw error;
    console.warn(`Order ${orderId}: ${what} could not be queued: ${error.message}`);
  }
}
