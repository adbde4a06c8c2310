import { z } from "zod";
import type { CallContext } from "~/infra/call-context.server";
import { conflict, notFound } from "~/infra/errors.server";
import { defineProcedure } from "~/infra/procedure.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { payoutProvider, platformOf } from "~/infra/payouts/select-payout-provider.server";
import { completeTestOnboarding as completeAtTestProvider } from "~/infra/payouts/test-payouts.server";
import {
  payoutAccountOf,
  refreshPayoutAccount,
} from "~/features/payouts/transfers/payout-accounts.server";
import { payoutAccountWithRow } from "~/features/payouts/transfers/payout-overview.server";
import {
  providerCall,
  startOnboarding,
} from "~/features/payouts/transfers/payout-onboarding.server";
import type { PayoutAccountView } from "~/features/payouts/types";

/** A creator's payout account: onboarding at the provider, coming back from it, the test onboarding, the provider's dashboard. */

async function accountView(ctx: CallContext, userId: string): Promise<PayoutAccountView> {
  const deps = {
    db: ctx.db,
    provider: payoutProvider(ctx.config, ctx.db),
    platform: platformOf(ctx.config),
  };
  return (await payoutAccountWithRow(deps, userId)).view;
}

/**
 * POST /api/payouts/onboard and the Payouts page's button: the caller's payout
 * account (created at the provider the first time, in the country the creator
 * chose) and a one-time link to its onboarding: Stripe's hosted pages, or the
 * in-app test onboarding page. A country the platform cannot pay is refused
 * with a sentence that says so, before anything is created.
 */
export const startPayoutOnboarding = defineProcedure({
  name: "startPayoutOnboarding",
  access: "user",
  input: z.object({ country: z.string().max(64).optional() }),
  run: ({ user, input, ctx }): Promise<{ url: string }> =>
    startOnboarding(
      {
        db: ctx.db,
        provider: payoutProvider(ctx.config, ctx.db),
        platform: platformOf(ctx.config),
        now: ctx.now,
        origin: ctx.origin,
      },
      user,
      input.country,
    ),
});

/** The creator is back from onboarding: the account's state as the provider reports it now (owed shares go out if it became active). */
export const refreshMyPayoutAccount = defineProcedure({
  name: "refreshMyPayoutAccount",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }): Promise<PayoutAccountView> {
    const provider = payoutProvider(ctx.config, ctx.db);
    await providerCall("Refreshing the payout account", () =>
      refreshPayoutAccount(ctx.db, provider, user.id, ctx.now),
    );
    announceJobs();
    return accountView(ctx, user.id);
  },
});

/** The test onboarding page: only on a server without Stripe, and only for the caller's own test account. */
export const testOnboardingState = defineProcedure({
  name: "testOnboardingState",
  access: "user",
  input: z.object({}),
  async run({
    user,
    ctx,
  }): Promise<{ accountId: string; email: string; status: PayoutAccountView["status"] }> {
    const provider = payoutProvider(ctx.config, ctx.db);
    if (provider.id !== "test")
      throw notFound("Test payout accounts exist only when Stripe is not configured");
    const row = await payoutAccountOf(ctx.db, user.id, "test");
    if (!row) throw notFound("Set up payouts first");
    return { accountId: row.account_id, email: user.email, status: row.status };
  },
});

/** The test onboarding form was submitted: the test account is ready and every owed share is transferred to it. */
export const completeTestOnboarding = defineProcedure({
  name: "completeTestOnboarding",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }): Promise<PayoutAccountView> {
    const provider = payoutProvider(ctx.config, ctx.db);
    if (provider.id !== "test")
      throw notFound("Test payout accounts exist only when Stripe is not configured");
    const row = await payoutAccountOf(ctx.db, user.id, "test");
    if (!row) throw notFound("Set up payouts first");
    await completeAtTestProvider(ctx.db, row.account_id, ctx.now);
    await refreshPayoutAccount(ctx.db, provider, user.id, ctx.now);
    announceJobs();
    return accountView(ctx, user.id);
  },
});

/** The creator's own dashboard at Stripe (Express); a conflict when there is none (no account yet, or test mode). */
export const payoutDashboardLink = defineProcedure({
  name: "payoutDashboardLink",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }): Promise<{ url: string }> {
    const provider = payoutProvider(ctx.config, ctx.db);
    const row = await payoutAccountOf(ctx.db, user.id, provider.id);
    if (!row || row.details_submitted !== 1) throw conflict("Finish setting up payouts first");
    const url = await providerCall("Opening the Stripe dashboard", () =>
      provider.dashboardUrl(row.account_id),
    );
    if (!url) throw conflict("Test payout accounts have no Stripe dashboard");
    return { url };
  },
});
