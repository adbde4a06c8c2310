import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { StripeConnectProvider } from "~/infra/payouts/stripe-connect.server";
import type { PayoutProvider } from "~/infra/payouts/payout-provider.server";
import { TestPayoutProvider } from "~/infra/payouts/test-payouts.server";
import { createStripeClient } from "~/infra/payments/stripe-checkout.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createListing } from "#tests/setup/market";
import { sharesOf } from "#tests/setup/payouts";
import { stripeMock } from "#tests/mocks/stripe";
import {
  creatorWithStripeAccount,
  paidStripeSale,
  postPayoutOnboarding,
  startStripeOnboarding,
  setUpStripePayoutMock,
  stripePayoutDeps,
  stripeRequestsTo,
} from "#tests/setup/stripe";
import { runReversal, runTransfer } from "~/features/payouts/transfers/payout-jobs.server";
import type { PayoutsOverview } from "~/features/payouts/types";
import { apiRoute } from "#tests/setup/api-routes";
import { payoutAccountsOf } from "#tests/setup/user-state";
import { firstRowWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const { loader: payoutsApi } = apiRoute("/api/token-payouts");

/**
 * Payouts across borders and after Stripe forgot an idempotency key: the real
 * `stripe` library against the Stripe mock, which enforces Stripe's country,
 * service agreement and settlement currency rules and keeps idempotency keys
 * for 24 hours of its clock. The platform is in the US and settles in usd.
 */
const {
  key: KEY,
  webhookSecret: WEBHOOK_SECRET,
  connectSecret: CONNECT_SECRET,
} = setUpStripePayoutMock("cross_border");

const DAY_MS = 24 * 3600 * 1000;
const connect = () => new StripeConnectProvider(KEY, { country: "US", currency: "usd" });
const deps = (provider: PayoutProvider = connect()) => stripePayoutDeps(KEY, provider);
const context = () => ({ db: getDb(), now: () => new Date(stripeMock.clock()) });
const requestsTo = stripeRequestsTo;

const onboard = startStripeOnboarding;

/** A creator in `country` who finished Stripe's onboarding (as account.updated reports it). */
const onboardedCreator = (country: string) =>
  creatorWithStripeAccount({ country, connectSecret: CONNECT_SECRET });

const paidSale = async (listingIds: string[], email: string) =>
  (await paidStripeSale(listingIds, email, WEBHOOK_SECRET)).order;

describe("payouts to creators in other countries", () => {
  it("a creator in France onboards under the recipient service agreement and is paid in the platform's currency", async () => {
    const claire = await onboardedCreator("FR");
    const [create] = requestsTo("POST", /^\/v1\/accounts$/);
    expect(create.form.get("country")).toBe("FR");
    expect(create.form.get("tos_acceptance[service_agreement]")).toBe("recipient");
    expect(create.form.has("capabilities[card_payments][requested]")).toBe(false);
    expect(stripeMock.account(claire.accountId)).toMatchObject({
      country: "FR",
      tos_acceptance: { service_agreement: "recipient" },
    });

    const { listing } = await createListing(claire.user.id, { price: 20 });
    const order = await paidSale([listing.id], "buyer-fr@example.com");
    expect(order.currency).toBe("usd");
    const [share] = await sharesOf(order.id);
    await runTransfer(deps(), { earningId: share.id }, context());
    expect(await sharesOf(order.id)).toMatchObject([
      { status: "transferred", transferred_cents: 1700 },
    ]);
    const [transfer] = [...stripeMock.transfers.values()];
    expect(transfer).toMatchObject({
      destination: claire.accountId,
      currency: "usd",
      amount: 1700,
    });

    const overview = (await (
      await callRoute(payoutsApi, makeRequest("/api/token-payouts", { token: claire.token }))
    ).json()) as PayoutsOverview;
    expect(overview).toMatchObject({
      platformCountry: "US",
      currency: "usd",
      account: { country: "FR", crossBorder: true, status: "active" },
    });
  });

  it("a creator in a country Stripe cannot pay is told so before onboarding, and nothing is created", async () => {
    const { creator, response } = await onboard("NG");
    expect(response.status).toBe(400);
    const body = (await response.json()) as { message: string };
    expect(body.message).toContain("Stripe cannot pay creators in Nigeria");
    expect(requestsTo("POST", /^\/v1\/accounts$/)).toEqual([]);
    expect(await payoutAccountsOf(creator.user.id)).toEqual([]);

    // No country, or not a country: a clear refusal too.
    for (const country of ["", "XX"]) {
      const refused = await postPayoutOnboarding(creator.token, country);
      expect(refused.status).toBe(400);
    }
    expect(stripeMock.accounts.size).toBe(0);
  });

  it("the mock refuses what Stripe refuses: an account where the platform cannot pay, a cross-border transfer without the recipient agreement, another currency", async () => {
    const stripe = createStripeClient(KEY);
    await expect(
      stripe.accounts.create({
        type: "express",
        country: "NG",
        capabilities: { transfers: { requested: true } },
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: "country" });
    await expect(
      stripe.accounts.create({
        type: "express",
        country: "FR",
        capabilities: { transfers: { requested: true }, card_payments: { requested: true } },
        tos_acceptance: { service_agreement: "recipient" },
      }),
    ).rejects.toMatchObject({ statusCode: 400 });

    const full = await stripe.accounts.create({
      type: "express",
      country: "FR",
      capabilities: { transfers: { requested: true } },
    });
    stripeMock.onboard(full.id);
    await expect(
      stripe.transfers.create({ amount: 100, currency: "usd", destination: full.id }),
    ).rejects.toMatchObject({ code: "transfers_not_allowed", param: "destination" });

    const recipient = await stripe.accounts.create({
      type: "express",
      country: "FR",
      capabilities: { transfers: { requested: true } },
      tos_acceptance: { service_agreement: "recipient" },
    });
    stripeMock.onboard(recipient.id);
    await expect(
      stripe.transfers.create({ amount: 100, currency: "eur", destination: recipient.id }),
    ).rejects.toMatchObject({ code: "balance_insufficient" });
    expect(
      (await stripe.transfers.create({ amount: 100, currency: "usd", destination: recipient.id }))
        .destination,
    ).toBe(recipient.id);
    expect(stripeMock.transfers.size).toBe(1);
  });

  it("the test payout provider applies the same rules", async () => {
    const db = getDb();
    const provider = new TestPayoutProvider(db, { country: "US", currency: "usd" });
    await expect(
      provider.createAccount({ userId: "u1", email: "ng@example.com", country: "NG" }),
    ).rejects.toThrow(/Stripe cannot pay creators in Nigeria/);
    const { accountId } = await provider.createAccount({
      userId: "u2",
      email: "fr@example.com",
      country: "FR",
    });
    expect(
      await firstRowWhere(
        "test_payout_accounts",
        ["country", "service_agreement"],
        "id",
        accountId,
      ),
    ).toEqual({
      country: "FR",
      service_agreement: "recipient",
    });
    await db
      .updateTable("test_payout_accounts")
      .set({ onboarded_at: new Date().toISOString() })
      .where("id", "=", accountId)
      .execute();
    const request = {
      accountId,
      amountCents: 500,
      currency: "eur",
      transferGroup: "order_x",
      sourceTransaction: null,
      idempotencyKey: "share_x",
      metadata: {},
    };
    await expect(provider.transfer(request)).rejects.toThrow(/holds no eur/);
    await provider.transfer({ ...request, currency: "usd" });
    // Under the full agreement, a transfer to an account abroad is refused.
    await updateWhere("test_payout_accounts", { service_agreement: "full" }, "id", accountId);
    await expect(
      provider.transfer({ ...request, currency: "usd", idempotencyKey: "share_y" }),
    ).rejects.toThrow(/recipient service agreement/);
  });
});

describe("never paid twice after Stripe forgets an idempotency key", () => {
  /** A provider that reaches Stripe and then dies before the answer is recorded (a crash after Stripe answered). */
  function crashingAfterStripe(): PayoutProvider {
    const real = connect();
    return Object.assign(Object.create(real) as PayoutProvider, {
      transfer: async (request: Parameters<PayoutProvider["transfer"]>[0]) => {
        await real.transfer(request);
        throw new Error("process killed after Stripe answered");
      },
      reverseTransfer: async (request: Parameters<PayoutProvider["reverseTransfer"]>[0]) => {
        await real.reverseTransfer(request);
        throw new Error("process killed after Stripe answered");
      },
    });
  }

  it("a share whose transfer succeeded but was never recorded, retried two days later, is paid once", async () => {
    const creator = await onboardedCreator("US");
    const { listing } = await createListing(creator.user.id, { price: 10 });
    const order = await paidSale([listing.id], "twice@example.com");
    const [share] = await sharesOf(order.id);

    await expect(
      runTransfer(deps(crashingAfterStripe()), { earningId: share.id }, context()),
    ).rejects.toThrow(/killed/);
    expect(stripeMock.transfers.size).toBe(1);
    expect(await sharesOf(order.id)).toMatchObject([{ status: "owed", transfer_id: null }]);

    // Two days later Stripe no longer knows the idempotency key: the same request would pay again.
    const start = stripeMock.clock();
    stripeMock.clock = () => start + 2 * DAY_MS;
    await runTransfer(deps(), { earningId: share.id }, context());
    expect(stripeMock.transfers.size).toBe(1);
    const [transfer] = [...stripeMock.transfers.values()];
    expect(await sharesOf(order.id)).toMatchObject([
      { status: "transferred", transfer_id: transfer.id, transferred_cents: 850 },
    ]);
    // The retry looked the transfer up by the order's transfer_group and sent nothing.
    expect(
      requestsTo("GET", /^\/v1\/transfers$/)
        .at(-1)
        ?.form.get("transfer_group"),
    ).toBe(order.id);
    expect(requestsTo("POST", /^\/v1\/transfers$/)).toHaveLength(1);

    // Without that look-up, the mock (as Stripe) would have made a second transfer with the same key.
    await connect().transfer({
      accountId: creator.accountId,
      amountCents: 850,
      currency: "usd",
      transferGroup: order.id,
      sourceTransaction: order.charge_id ?? transfer.source_transaction,
      idempotencyKey: share.id,
      metadata: { order_id: order.id, earning_id: share.id, creator_id: creator.user.id },
    });
    expect(stripeMock.transfers.size).toBe(2);
  });

  it("a reversal that succeeded but was never recorded, retried two days later, takes the money back once", async () => {
    const creator = await onboardedCreator("US");
    const { listing } = await createListing(creator.user.id, { price: 10 });
    const order = await paidSale([listing.id], "reversal-twice@example.com");
    const [share] = await sharesOf(order.id);
    await runTransfer(deps(), { earningId: share.id }, context());
    // A full refund was recorded: the whole share is to be taken back.
    await updateWhere(
      "earnings",
      { creator_reversed_cents: 850, platform_reversed_cents: 150, status: "reversed" },
      "id",
      share.id,
    );

    await expect(
      runReversal(deps(crashingAfterStripe()), { earningId: share.id }, context()),
    ).rejects.toThrow(/killed/);
    expect(stripeMock.reversals.size).toBe(1);
    const start = stripeMock.clock();
    stripeMock.clock = () => start + 2 * DAY_MS;
    await runReversal(deps(), { earningId: share.id }, context());
    expect(stripeMock.reversals.size).toBe(1);
    const [reversal] = [...stripeMock.reversals.values()];
    expect(await sharesOf(order.id)).toMatchObject([
      { transfer_reversed_cents: 850, reversal_id: reversal.id },
    ]);
    expect(reversal.metadata).toMatchObject({ earning_id: share.id, reversed_total_cents: "850" });
  });
});
