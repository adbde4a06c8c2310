import { ZodError } from "zod";
import type { OrderItemRow, OrderRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { newId } from "~/infra/ids.server";
import { issueDownloadGrants } from "~/features/market/download-grants.server";
import { splitSale } from "~/features/payouts/procedures.server";
import { crashPoint } from "~/infra/crash-points.server";
import { getConfig } from "~/infra/config.server";
import { publicOrigin } from "~/infra/payments/public-origin.server";
import { queueMail } from "~/features/mail/procedures.server";
import { libraryUrl } from "~/features/market/library-token.server";
import { renderReceiptMail } from "~/features/market/receipt-mail.server";

/**
 * Fulfillment, the one function the Stripe webhook, the success return and the
 * test checkout all call. Exactly once rests on the database, not on timing:
 *
 * 1. In one transaction, the order moves to 'paid' with a conditional UPDATE
 *    (`... WHERE status <> 'paid'`). SQLite runs one write transaction at a
 *    time, so of any number of concurrent or replayed calls exactly one sees
 *    the row change; the others see 0 rows and stop.
 * 2. The same transaction issues the download grants and writes the ledger.
 *    earnings.order_item_id and download_grants.order_item_id are UNIQUE, and
 *    the inserts are ON CONFLICT DO NOTHING, so even a second writer could not
 *    add a second row.
 * 3. The same transaction queues the receipt to the buyer (a mail job), so it
 *    goes exactly once per order: only the call that marked the order paid
 *    queues it, and only if that commits. The callers announce the job after
 *    their commit.
 * 4. If anything fails, the transaction rolls back and the order stays unpaid
 *    (Stripe retries the webhook; the return and the payment status retry too).
 *
 * `origin` is where the receipt's library link points: PUBLIC_URL's origin
 * when set, else the origin of the request that led here (the caller's
 * ctx.origin already is exactly that). Without one (a test, a script),
 * PUBLIC_URL or the local server.
 */

export interface PaymentEvidence {
  /** What the provider says was paid, in cents; refused when it is not the order's total. */
  amountCents?: number | null;
  currency?: string | null;
}

export type FulfillmentOutcome =
  | { outcome: "fulfilled"; order: OrderRow }
  | { outcome: "already-paid"; order: OrderRow }
  | { outcome: "amount-mismatch"; order: OrderRow }
  | { outcome: "unknown-order" };

export function fulfillOrder(
  db: DB,
  orderId: string,
  evidence: PaymentEvidence,
  now: Date,
  origin?: string,
): Promise<FulfillmentOutcome> {
  return db.transaction().execute((trx) => fulfillOrderInTransaction(trx, orderId, evidence, now, origin));
}

/** The same, inside a transaction the caller holds (the webhook records its event id in it). */
export async function fulfillOrderInTransaction(
  trx: DB,
  orderId: string,
  evidence: PaymentEvidence,
  now: Date,
  origin?: string,
): Promise<FulfillmentOutcome> {
  const order = await trx.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst();
  if (!order) return { outcome: "unknown-order" };
  if (order.status === "paid") return { outcome: "already-paid", order };
  const amountDiffers = evidence.amountCents != null && evidence.amountCents !== order.total_cents;
  const currencyDiffers = evidence.currency != null && evidence.currency.toLowerCase() !== order.currency;
  if (amountDiffers || currencyDiffers) return { outcome: "amount-mismatch", order };

  const stamp = now.toISOString();
  const paid = await trx
    .updateTable("orders")
    .set({ status: "paid", paid_at: stamp, updated_at: stamp, failure_reason: null })
    .where("id", "=", orderId)
    .where("status", "!=", "paid")
    .returningAll()
    .executeTakeFirst();
  if (!paid) {
    const current = await trx.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
    return { outcome: "already-paid", order: current };
  }

  crashPoint("order-marked-paid");
  const items = await trx.selectFrom("order_items").selectAll().where("order_id", "=", orderId).execute();
  await issueDownloadGrants(trx, items, now);
  for (const item of items) {
    const { creatorCents, platformCents } = splitSale(item.price_cents);
    await trx
      .insertInto("earnings")
      .values({
        id: newId(),
        order_item_id: item.id,
        order_id: item.order_id,
        creator_id: item.creator_id,
        listing_id: item.listing_id,
        amount_cents: creatorCents,
        platform_fee_cents: platformCents,
        // A sale in the built-in test checkout: no money moved (not revenue on a production server).
        test_mode: order.provider === "test" ? 1 : 0,
        created_at: stamp,
      })
      .onConflict((oc) => oc.column("order_item_id").doNothing())
      .execute();
  }
  await queueReceipt(trx, paid, items, now, origin);
  return { outcome: "fulfilled", order: paid };
}

/** The fallback origin when no request led here: PUBLIC_URL, else the local server. */
function fallbackOrigin(): string {
  const config = getConfig();
  return publicOrigin(config, `http://localhost:${process.env.PORT || 3000}`);
}

async function queueReceipt(trx: DB, order: OrderRow, items: OrderItemRow[], now: Date, origin?: string): Promise<void> {
  const base = origin ?? fallbackOrigin();
  const message = renderReceiptMail({
    customerName: order.customer_name,
    orderId: order.id,
    paidAt: order.paid_at ?? now.toISOString(),
    items: items.map((item) => ({ title: item.title, style: item.style, priceCents: item.price_cents })),
    totalCents: order.total_cents,
    testMode: order.provider === "test",
    libraryUrl: libraryUrl(base, order.customer_email, now),
  });
  try {
    await queueMail(trx, { to: order.customer_email, ...message, now });
  } catch (error) {
    // A message that could never be sent (refused before anything is queued) must not keep the order unpaid.
    if (!(error instanceof ZodError)) throw error;
    console.warn(`Order ${order.id}: the receipt could not be queued: ${error.message}`);
  }
}
