import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { TestPayoutProvider } from "~/infra/payouts/test-payouts.server";
import type { PayoutProvider } from "~/infra/payouts/payout-provider.server";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import {
  onboardTestPayouts,
  payoutDeps,
  runPayoutJobs,
  sharesOf,
  testCheckoutSale,
} from "#tests/setup/payouts";
import { refreshPayoutAccount } from "~/features/payouts/transfers/payout-accounts.server";
import { selectWhere } from "#tests/setup/rows-where";

describe("a transfer that gave up", () => {
  it("is sent when the creator next comes back to their payout account, once", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const accountId = await onboardTestPayouts(creator.user);
    const { listing } = await createListing(creator.user.id, { price: 10 });
    const orderId = await testCheckoutSale([listing.id], "gave-up@example.com");

    // The provider is down for every attempt: the job fails for good and the share stays owed.
    const real = new TestPayoutProvider(db);
    const broken: PayoutProvider = {
      id: "test",
      createAccount: (account) => real.createAccount(account),
      retrieveAccount: (id) => real.retrieveAccount(id),
      onboardingUrl: (request) => real.onboardingUrl(request),
      dashboardUrl: () => real.dashboardUrl(),
      transfer: () => Promise.reject(new Error("provider down")),
      reverseTransfer: (request) => real.reverseTransfer(request),
      findTransfer: (lookup) => real.findTransfer(lookup),
      findReversal: (lookup) => real.findReversal(lookup),
    };
    await runPayoutJobs(payoutDeps(undefined, undefined, () => broken));
    expect(await sharesOf(orderId)).toMatchObject([{ status: "owed", transfer_id: null }]);
    expect(await selectWhere("jobs", "status", "kind", "payouts.transfer")).toEqual([
      { status: "failed" },
    ]);

    await refreshPayoutAccount(db, new TestPayoutProvider(db), creator.user.id, new Date());
    await refreshPayoutAccount(db, new TestPayoutProvider(db), creator.user.id, new Date());
    await runPayoutJobs();
    expect(await sharesOf(orderId)).toMatchObject([
      { status: "transferred", transferred_cents: 850 },
    ]);
    const movements = await selectWhere(
      "test_payout_movements",
      ["kind", "amount_cents"],
      "account_id",
      accountId,
    );
    expect(movements).toEqual([{ kind: "transfer", amount_cents: 850 }]);
  });
});
