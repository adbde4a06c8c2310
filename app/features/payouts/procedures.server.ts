import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { creatorEarnings as earningsOf } from "~/features/payouts/earnings.server";
import { creatorStats as statsOf } from "~/features/payouts/creator-stats.server";
import { testSalesCount } from "~/infra/payments/select-provider.server";

/**
 * The caller's share of each sale, from the ledger (GET /api/token-earnings).
 * On a production server, test-checkout sales are listed (testMode: true) but not in the totals.
 */
export const creatorEarnings = defineProcedure({
  name: "creatorEarnings",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => earningsOf(ctx.db, user.id, { includeTestSales: testSalesCount(ctx.config) }),
});

/** The caller's studio and sales numbers (GET /api/token-stats and the dashboard's stat cards). */
export const creatorStats = defineProcedure({
  name: "creatorStats",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => statsOf(ctx.db, user.id, { includeTestSales: testSalesCount(ctx.config) }),
});

// What other features use of this one; they reach it only through this file.
export type { SalesScope } from "~/features/payouts/earnings.server";
export { splitSale } from "~/features/payouts/earnings.server";
