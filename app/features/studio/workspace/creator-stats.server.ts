import type { DB } from "~/infra/db.server";
import { marketStats, type SalesScope } from "~/features/payouts/public.server";
import { studioCountsOf } from "~/features/studio/styles/stylized-images.server";
import type { CreatorStats } from "~/features/studio/types";

/**
 * The creator's numbers (GET /api/token-stats and the dashboard's stat cards):
 * studio counts from the images tables, market numbers from the listings and
 * the earnings ledger (payouts).
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
