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
 * earnings).
 */
export function creatorSalesInRange(db: DB, creatorId: string, range: SoldRange) {
  return {
    rows: db
      .selectFrom("earnings")
      .innerJoin("order_items", "order_items.id", "earnings.order_item_id")
      .where("earnings.creator_id", "=", creatorId)
      .where("earnings.created_at", ">=", range.fromStamp)
      .where("earnings.created_at", "<", range.untilStamp),
    counted: range.includeTestSales
      ? sql<boolean>`(1 = 1)`
      : sql<boolean>`(earnings.test_mode = 0)`,
  };
}
