import type { DB } from "~/infra/db.server";
import { centsToPriceString } from "~/lib/money";
import type { AnalyticsBundle } from "~/features/market/analytics/analytics";
import {
  creatorSalesInRange,
  type SoldRange,
} from "~/features/market/analytics/sold-in-range.server";

/**
 * A creator's bundles over a range, for their analytics: each bundle sold in
 * [fromStamp, untilStamp) with how many times (paid orders that held it, one
 * refunded in full counting none) and the creator's share of its items less
 * refunds, from the earnings ledger joined to the order items that carry the
 * bundle. A test-checkout sale counts only where test sales are earnings.
 */
export async function bundleSalesOf(
  db: DB,
  creatorId: string,
  range: SoldRange,
): Promise<AnalyticsBundle[]> {
  const { rows: sold, paidOrders, creatorShareCents } = creatorSalesInRange(db, creatorId, range);
  const rows = await sold
    .innerJoin("bundles", "bundles.id", "order_items.bundle_id")
    .select([
      "bundles.id as bundle_id",
      "bundles.title as title",
      paidOrders.as("sales"),
      creatorShareCents.as("cents"),
    ])
    .groupBy(["bundles.id", "bundles.title"])
    .execute();
  return rows
    .map((row) => ({
      bundleId: row.bundle_id,
      title: row.title,
      sales: Number(row.sales),
      earnings: centsToPriceString(Number(row.cents)),
    }))
    .sort(
      (a, b) =>
        Number(b.earnings) - Number(a.earnings) ||
        b.sales - a.sales ||
        a.title.localeCompare(b.title),
    );
}
