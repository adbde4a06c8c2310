import type { DB } from "~/infra/db.server";
import type { CreatorSale, CreatorSaleState } from "~/features/market/types";

/** How many of a creator's latest sales the payment monitor shows. */
export const RECENT_SALES_SHOWN = 10;

/**
 * A creator's latest sales with their payment's state, newest first: each
 * item of theirs in an order that was paid (a pending, failed or expired
 * checkout is not a sale). The buyer stays private: no name, email or
 * session id, only what the creator needs to follow their money.
 */
export async function recentSalesOf(
  db: DB,
  creatorId: string,
  limit = RECENT_SALES_SHOWN,
): Promise<CreatorSale[]> {
  const rows = await db
    .selectFrom("order_items")
    .innerJoin("orders", "orders.id", "order_items.order_id")
    .select([
      "order_items.id as id",
      "order_items.title as title",
      "order_items.style as style",
      "order_items.price_cents as priceCents",
      "orders.currency as currency",
      "orders.status as status",
      "orders.provider as provider",
      "orders.paid_at as paidAt",
      "orders.total_cents as totalCents",
      "orders.refunded_cents as refundedCents",
    ])
    .where("order_items.creator_id", "=", creatorId)
    .where("orders.paid_at", "is not", null)
    .orderBy("orders.paid_at", "desc")
    .orderBy("order_items.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    style: row.style,
    priceCents: row.priceCents,
    currency: row.currency,
    paidAt: row.paidAt!,
    testCheckout: row.provider === "test",
    state: saleState(row),
  }));
}

function saleState(row: {
  status: string;
  totalCents: number;
  refundedCents: number;
}): CreatorSaleState {
  if (row.status === "disputed") return "disputed";
  if (row.status === "refunded" || row.refundedCents >= row.totalCents) return "refunded";
  if (row.refundedCents > 0) return "partly refunded";
  return "paid";
}
