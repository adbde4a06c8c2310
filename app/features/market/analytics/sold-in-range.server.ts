import { sql } from "kysely";
import type { DB } from "~/infra/db.server";

/** A range of the creator's analytics: [fromStamp, untilStamp) as ISO instants, and whether test sales count. */
export interface SoldRange {
  fromStamp: string;
  untilStamp: string;
  includeTestSales: boolean;
}

/**
 * The earnings ledger's rows (one per item sold) of one creator within a
 * range, for grouping by what the items were sold with (a bundle, a discount
 * code): join what the rows are grouped by, and select through `counted`, true
 * for a row whose sale counts (a test-checkout sale only where test sales are
 * earnings), and `kept`, true for a counted row not reversed by a full refund.
 * The figures every grouping shows: `paidOrders`, the paid orders whose sale
 * was kept, and `creatorShareCents`, the creator's share less refunds.
 */
export function creatorSalesInRange(db: DB, creatorId: string, range: SoldRange) {
  const counted = range.includeTestSales
    ? sql<boolean>`(1 = 1)`
    : sql<boolean>`(earnings.test_mode = 0)`;
  const kept = sql<boolean>`(earnings.status != 'reversed' and ${counted})`;
  return {
    rows: db
      .selectFrom("earnings")
      .innerJoin("order_items", "order_items.id", "earnings.order_item_id")
      .where("earnings.creator_id", "=", creatorId)
      .where("earnings.created_at", ">=", range.fromStamp)
      .where("earnings.created_at", "<", range.untilStamp),
    counted,
    kept,
    paidOrders: sql<number>`count(distinct case when ${kept} then earnings.order_id end)`,
    creatorShareCents: sql<number>`coalesce(sum(case when ${counted} then earnings.amount_cents - earnings.creator_reversed_cents else 0 end), 0)`,
  };
}
