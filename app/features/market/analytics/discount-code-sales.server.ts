import { sql } from "kysely";
import type { DB } from "~/infra/db.server";
import { centsToPriceString } from "~/lib/money";
import type { AnalyticsDiscountCode } from "~/features/market/analytics/analytics";
import {
  creatorSalesInRange,
  type SoldRange,
} from "~/features/market/analytics/sold-in-range.server";

/**
 * Revenue per discount code, for the creator's analytics: each of their codes
 * used by a paid order in [fromStamp, untilStamp) — how many orders (one
 * refunded in full counting none), what buyers paid for the creator's items
 * after the discount less refunds, what the code took off, and the creator's
 * share. From the earnings ledger (one row per item sold) joined to the order
 * items that carry the code; a deleted code keeps its figures. A test-checkout
 * sale counts only where test sales are earnings.
 */
export async function discountCodeSalesOf(
  db: DB,
  creatorId: string,
  range: SoldRange,
): Promise<AnalyticsDiscountCode[]> {
  const {
    rows: sold,
    counted,
    kept,
    paidOrders,
    creatorShareCents,
  } = creatorSalesInRange(db, creatorId, range);
  const rows = await sold
    .innerJoin("discount_codes", "discount_codes.id", "order_items.discount_code_id")
    .select([
      "discount_codes.id as id",
      "discount_codes.code as code",
      paidOrders.as("orders"),
      sql<number>`coalesce(sum(case when ${counted} then earnings.amount_cents + earnings.platform_fee_cents - earnings.creator_reversed_cents - earnings.platform_reversed_cents else 0 end), 0)`.as(
        "revenue",
      ),
      sql<number>`coalesce(sum(case when ${kept} then order_items.discount_cents else 0 end), 0)`.as(
        "discount",
      ),
      creatorShareCents.as("earnings"),
    ])
    .groupBy(["discount_codes.id", "discount_codes.code"])
    .execute();
  return rows
    .map((row) => ({
      discountCodeId: row.id,
      code: row.code,
      orders: Number(row.orders),
      revenue: centsToPriceString(Number(row.revenue)),
      discount: centsToPriceString(Number(row.discount)),
      earnings: centsToPriceString(Number(row.earnings)),
    }))
    .sort(
      (a, b) =>
        Number(b.revenue) - Number(a.revenue) ||
        b.orders - a.orders ||
        a.code.localeCompare(b.code),
    );
}
