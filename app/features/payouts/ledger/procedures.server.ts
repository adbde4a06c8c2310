import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { testSalesCount } from "~/infra/payments/select-provider.server";
import { payoutProvider, platformOf } from "~/infra/payouts/select-payout-provider.server";
import { creatorEarnings as earningsOf } from "~/features/payouts/ledger/earnings.server";
import { payoutsOverview } from "~/features/payouts/transfers/payout-overview.server";
import type { PayoutsOverview } from "~/features/payouts/types";

/** A creator's money from the ledger: their share of each sale and the Payouts overview (balance and transfers). */

/**
 * The caller's share of each sale, from the ledger (GET /api/token-earnings).
 * On a production server, test-checkout sales are listed (testMode: true) but not in the totals.
 */
export const creatorEarnings = defineProcedure({
  name: "creatorEarnings",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) =>
    earningsOf(ctx.db, user.id, { includeTestSales: testSalesCount(ctx.config) }),
});

/** GET /api/token-payouts, the dashboard's Payouts card and the Payouts page: the account, the balance and the transfers. */
export const creatorPayouts = defineProcedure({
  name: "creatorPayouts",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }): Promise<PayoutsOverview> =>
    payoutsOverview(
      {
        db: ctx.db,
        provider: payoutProvider(ctx.config, ctx.db),
        platform: platformOf(ctx.config),
        scope: { includeTestSales: testSalesCount(ctx.config) },
      },
      user.id,
    ),
});
