import type Stripe from "stripe";
import { z } from "zod";
import type { PayoutProviderId } from "#db/schema";
import type { CallContext } from "~/infra/call-context.server";
import type { DB } from "~/infra/db.server";
import { HttpError, badRequest, conflict, notFound } from "~/infra/errors.server";
import { defineProcedure } from "~/infra/procedure.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { testSalesCount } from "~/infra/payments/select-provider.server";
import { payoutProvider, platformOf } from "~/infra/payouts/select-payout-provider.server";
import { countryName, normalizeCountry, payoutCountryRule } from "~/lib/payout-countries";
import { accountStateOf } from "~/infra/payouts/stripe-connect.server";
import { completeTestOnboarding as completeAtTestProvider, testAccountBalanceCents } from "~/infra/payouts/test-payouts.server";
import { centsToPriceString } from "~/lib/money";
import { creatorEarnings as earningsOf } from "~/features/payouts/earnings.server";
import { creatorStats as statsOf } from "~/features/payouts/creator-stats.server";
import { creatorBalance, creatorTransfers, payoutsByCreator, type BalanceCents } from "~/features/payouts/balances.server";
import { applyAccountState, ensurePayoutAccount, payoutAccountOf, refreshPayoutAccount } from "~/features/payouts/payout-accounts.server";
import type { AdminPayoutRow, PayoutAccountView, PayoutBalance, PayoutsOverview } from "~/features/payouts/types";

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

/** A call to the payout provider: its failure (Stripe unreachable or refusing) is a 502 with a message, never a 500. */
async function providerCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    console.warn(`${what} failed at the payout provider:`, error);
    throw new HttpError(502, "The payout provider could not be reached. Nothing was changed; please try again later.");
  }
}

function balanceOf(cents: BalanceCents): PayoutBalance {
  return {
    earned: centsToPriceString(cents.earned),
    owed: centsToPriceString(cents.owed),
    transferred: centsToPriceString(cents.transferred),
    held: centsToPriceString(cents.held),
    reversed: centsToPriceString(cents.reversed),
  };
}

async function accountView(ctx: CallContext, userId: string): Promise<PayoutAccountView> {
  return (await accountWithRow(ctx, userId)).view;
}

/** The caller's account at the configured provider: as screens show it, and its row (none before setup). */
async function accountWithRow(ctx: CallContext, userId: string) {
  const provider = payoutProvider(ctx.config, ctx.db);
  const row = await payoutAccountOf(ctx.db, userId, provider.id);
  const platform = platformOf(ctx.config);
  const country = row ? (row.country ?? platform.country) : null;
  const view: PayoutAccountView = {
    provider: provider.id,
    status: row ? row.status : "not_connected",
    payoutsEnabled: row?.payouts_enabled === 1,
    country,
    crossBorder: country !== null && country !== platform.country,
  };
  return { view, row };
}

/** GET /api/token-payouts, the dashboard's Payouts card and the Payouts page: the account, the balance and the transfers. */
export const creatorPayouts = defineProcedure({
  name: "creatorPayouts",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }): Promise<PayoutsOverview> {
    const scope = { includeTestSales: testSalesCount(ctx.config) };
    const [{ view: account, row }, balance, transfers] = await Promise.all([
      accountWithRow(ctx, user.id),
      creatorBalance(ctx.db, user.id, scope),
      creatorTransfers(ctx.db, user.id),
    ]);
    // In test mode, what the creator's test payout account holds.
    const testRow = account.provider === "test" ? row : undefined;
    const platform = platformOf(ctx.config);
    return {
      account,
      platformCountry: platform.country,
      currency: platform.currency,
      balance: balanceOf(balance),
      transfers: transfers.map((transfer) => ({
        id: transfer.id,
        title: transfer.title,
        saleReference: transfer.saleReference,
        amount: centsToPriceString(transfer.amountCents),
        reversed: centsToPriceString(transfer.reversedCents),
        status: transfer.status,
        createdAt: transfer.createdAt,
        testMode: transfer.testMode,
      })),
      testAccountBalance: testRow ? centsToPriceString(await testAccountBalanceCents(ctx.db, testRow.account_id)) : null,
    };
  },
});

/** Where the provider sends the creator back: the Payouts page, which refreshes the account's state. */
export function payoutReturnUrl(origin: string): string {
  return new URL("/payouts?onboarding=return", origin).toString();
}

/** Where an expired or used onboarding link leads: a page whose Continue button (a POST) makes a fresh one. */
export function payoutRefreshUrl(origin: string): string {
  return new URL("/payouts/onboard", origin).toString();
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
  async run({ user, input, ctx }): Promise<{ url: string }> {
    const provider = payoutProvider(ctx.config, ctx.db);
    const existing = await payoutAccountOf(ctx.db, user.id, provider.id);
    const platform = platformOf(ctx.config);
    let country = existing?.country ?? platform.country;
    if (!existing) {
      if (input.country === undefined || input.country.trim() === "") throw badRequest("Choose the country you live in, where your bank account is.", { country: ["Choose your country"] });
      const chosen = normalizeCountry(input.country);
      if (!chosen) throw badRequest(`${input.country} is not a country code (two letters, such as US or FR).`, { country: ["Not a country code"] });
      const rule = payoutCountryRule(platform.country, chosen);
      if (!rule.payable) throw badRequest(`${rule.reason} Nothing was set up.`, { country: [rule.reason] });
      country = chosen;
    }
    return providerCall("Starting payout onboarding", async () => {
      const account = await ensurePayoutAccount(ctx.db, provider, { id: user.id, email: user.email, country }, ctx.now);
      const url = await provider.onboardingUrl({
        accountId: account.account_id,
        returnUrl: payoutReturnUrl(ctx.origin),
        refreshUrl: payoutRefreshUrl(ctx.origin),
      });
      return { url };
    });
  },
});

/** The creator is back from onboarding: the account's state as the provider reports it now (owed shares go out if it became active). */
export const refreshMyPayoutAccount = defineProcedure({
  name: "refreshMyPayoutAccount",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }): Promise<PayoutAccountView> {
    const provider = payoutProvider(ctx.config, ctx.db);
    await providerCall("Refreshing the payout account", () => refreshPayoutAccount(ctx.db, provider, user.id, ctx.now));
    announceJobs();
    return accountView(ctx, user.id);
  },
});

/** The test onboarding page: only on a server without Stripe, and only for the caller's own test account. */
export const testOnboardingState = defineProcedure({
  name: "testOnboardingState",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }): Promise<{ accountId: string; email: string; status: PayoutAccountView["status"] }> {
    const provider = payoutProvider(ctx.config, ctx.db);
    if (provider.id !== "test") throw notFound("Test payout accounts exist only when Stripe is not configured");
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
    if (provider.id !== "test") throw notFound("Test payout accounts exist only when Stripe is not configured");
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
    const url = await providerCall("Opening the Stripe dashboard", () => provider.dashboardUrl(row.account_id));
    if (!url) throw conflict("Test payout accounts have no Stripe dashboard");
    return { url };
  },
});

/** GET /api/admin/payouts: every creator's account state and balance. */
export const adminPayouts = defineProcedure({
  name: "adminPayouts",
  access: "admin",
  input: z.object({}),
  async run({ ctx }): Promise<AdminPayoutRow[]> {
    const provider = payoutProvider(ctx.config, ctx.db);
    const rows = await payoutsByCreator(ctx.db, { includeTestSales: testSalesCount(ctx.config) }, provider.id);
    return rows.map((row) => ({
      userId: row.userId,
      email: row.email,
      firstName: row.firstName,
      lastName: row.lastName,
      account: { status: row.accountStatus ?? "not_connected" },
      ...balanceOf(row),
    }));
  },
});

/** A Connect `account.updated` event (in the webhook's transaction): the account's new state. */
export function applyStripeAccountUpdate(trx: DB, account: Stripe.Account, now: Date) {
  return applyAccountState(trx, "stripe" satisfies PayoutProviderId, accountStateOf(account), now);
}

/** A country's name for sentences (re-exported for screens). */
export { countryName };

// What other features use of this one; they reach it only through this file.
export type { SalesScope } from "~/features/payouts/earnings.server";
export { splitSale } from "~/features/payouts/earnings.server";
export { holdShares, releaseShares, reverseSharesForRefund, restoreSharesForUndoneRefund, queueTransfersOfOrder } from "~/features/payouts/shares.server";
export { holdSharesOfBannedCreator, releaseSharesOfUnbannedCreator } from "~/features/payouts/banned-creator-shares.server";
export { queueTransfersOfErasedCreator, settlePayoutsOfErasedCreator } from "~/features/payouts/creator-erasure.server";
export type { PayoutJobDeps } from "~/features/payouts/payout-jobs.server";
export { TRANSFER_JOB } from "~/features/payouts/shares.server";
