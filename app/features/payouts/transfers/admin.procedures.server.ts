import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { testSalesCount } from "~/infra/payments/select-provider.server";
import { payoutProvider } from "~/infra/payouts/select-payout-provider.server";
import { adminPayoutRows } from "~/features/payouts/transfers/payout-overview.server";
import type { AdminPayoutRow } from "~/features/payouts/types";

/** GET /api/admin/payouts: every creator's account state and balance. */
export const adminPayouts = defineProcedure({
  name: "adminPayouts",
  access: "admin",
  input: z.object({}),
  run: ({ ctx }): Promise<AdminPayoutRow[]> =>
    adminPayoutRows({
      db: ctx.db,
      provider: payoutProvider(ctx.config, ctx.db),
      scope: { includeTestSales: testSalesCount(ctx.config) },
    }),
});
