import type { DB } from "~/infra/db.server";
import { centsToDollarAmount } from "~/lib/money";
import { creatorTotals } from "~/features/payouts/ledger/earnings.server";
import type { SalesScope } from "~/features/payouts/ledger/earnings.server";

/** Listings, sales, earnings and views, from the marketplace's own ledger (earnings.server.ts). */
export async function marketStats(db: DB, userId: string, scope: SalesScope) {
  const totals = await creatorTotals(db, userId, scope);
  return {
    totalListed: totals.listed,
    totalSales: totals.sales,
    totalEarnings: centsToDollarAmount(totals.earningsCents),
    totalViews: totals.views,
  };
}
