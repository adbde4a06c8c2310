import type { DB } from "~/infra/db.server";
import { centsToDollarAmount } from "~/lib/money";
import { creatorTotals } from "~/features/payouts/ledger/earnings.server";
import type { SalesScope } from "~/features/payouts/ledger/earnings.server";
import type { CreatorStats } from "~/features/payouts/types";
import { studioCountsOf } from "~/features/studio/public.server";

/**
 * The creator's numbers (GET /api/token-stats and the dashboard's stat cards):
 * studio counts from the images tables, market numbers from the listings and
 * the earnings ledger.
 */
export async function creatorStats(
  db: DB,
  userId: string,
  scope: SalesScope,
): Promise<CreatorStats> {
  const [studio, market] = await Promise.all([
    studioCountsOf(db, userId),
    marketStats(db, userId, scope),
  ]);
  return { ...studio, ...market };
}

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
