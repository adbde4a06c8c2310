import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { creatorEarnings } from "~/features/payouts/earnings.server";
import { creatorStats } from "~/features/payouts/creator-stats.server";
import { testSalesCount } from "~/infra/payments/select-provider.server";

/**
 * GET /api/token-earnings: the caller's share of each sale, from the ledger.
 * On a production server, test-checkout sales are listed (testMode: true) but not in the totals.
 */
export const tokenEarnings = defineProcedure({
  name: "tokenEarnings",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => creatorEarnings(ctx.db, user.id, { includeTestSales: testSalesCount(ctx.config) }),
});

/** GET /api/token-stats: the caller's studio and sales numbers. */
export const tokenStats = defineProcedure({
  name: "tokenStats",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => creatorStats(ctx.db, user.id, { includeTestSales: testSalesCount(ctx.config) }),
});

// What other features use of this one; they reach it only through this file.
export type { SalesScope } from "~/features/payouts/earnings.server";
export { splitSale } from "~/features/payouts/earnings.server";
export { creatorStats } from "~/features/payouts/creator-stats.server";
