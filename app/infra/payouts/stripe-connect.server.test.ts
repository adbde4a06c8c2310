import { describe, expect, it } from "vitest";
import type Stripe from "stripe";
import { StripeCheckoutProvider } from "~/infra/payments/stripe-checkout.server";
import { accountStateOf, StripeConnectProvider } from "~/infra/payouts/stripe-connect.server";
import type { TransferRequest } from "~/infra/payouts/payout-provider.server";
import {
  accountUpdatedEvent,
  chargeRefundedEvent,
  disputeEvent,
  stripeMock,
} from "#tests/mocks/stripe";
import { setUpStripeMock } from "#tests/setup/stripe";

const SECRET_KEY = "sk_test_selfie_studio";

setUpStripeMock();

const connect = () => new StripeConnectProvider(SECRET_KEY);

function requestsTo(method: string, path: string) {
  return stripeMock.requests.filter(
    (request) => request.method === method && request.path === path,
  );
}

/** A creator's Express account, onboarded so it can receive transfers. */
async function onboardedAccount(userId = "user_1") {
  const { accountId } = await connect().createAccount({
    userId,
    email: `${userId}@example.com`,
    country: "US",
  });
  stripeMock.onboard(accountId);
  return accountId;
}

/** A paid order: the PaymentIntent and charge Stripe made for it. */
function paidCharge(amount = 5000) {
  return stripeMock.pay({ amount, currency: "usd", metadata: { order_id: "order_1" } });
}

function transferRequest(
  accountId: string,
  overrides: Partial<TransferRequest> = {},
): TransferRequest {
  return {
    accountId,
    amountCents: 4000,
    currency: "usd",
    transferGroup: "order_1",
    sourceTransaction: null,
    idempotencyKey: "transfer-order_1-user_1",
    metadata: { order_id: "order_1", user_id: "user_1" },
    ...overrides,
  };
}

describe("StripeConnectProvider (the real stripe library against msw)", () => {
  it("creates an Express account with the transfers capability requested, once per user", async () => {
    const state = await connect().createAccount({
      userId: "user_1",
      email: "creator@example.com",
      country: "US",
    });
    expect(state).toEqual({
      accountId: expect.stringMatching(/^acct_/),
      status: "pending",
      payoutsEnabled: false,
      transfersEnabled: false,
      detailsSubmitted: false,
    });

    const [create] = requestsTo("POST", "/v1/accounts");
    expect(create.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(create.idempotencyKey).toBe("payout-account-user_1-US");
    expect(create.form.get("type")).toBe("express");
    expect(create.form.get("email")).toBe("creator@example.com");
    expect(create.form.get("capabilities[transfers][requested]")).toBe("true");
    expect(create.form.get("metadata[user_id]")).toBe("user_1");
    expect(stripeMock.account(state.accountId)).toMatchObject({
      object: "account",
      type: "express",
      capabilities: { transfers: "inactive" },
    });

    // A retried request answers the same account and makes no second one.
    const again = await connect().createAccount({
      userId: "user_1",
      email: "creator@example.com",
      country: "US",
    });
    expect(again.accountId).toBe(state.accountId);
    expect(stripeMock.accounts.size).toBe(1);
  });

  it("retrieves an account's state as onboarding and Stripe's checks move it", async () => {
    const { accountId } = await connect().createAccount({
      userId: "user_1",
      email: "creator@example.com",
      country: "US",
    });
    expect((await connect().retrieveAccount(accountId)).status).toBe("pending");

    stripeMock.onboard(accountId);
    expect(await connect().retrieveAccount(accountId)).toEqual({
      accountId,
      status: "active",
      payoutsEnabled: true,
      transfersEnabled: true,
      detailsSubmitted: true,
    });

    stripeMock.restrict(accountId);
    expect(await connect().retrieveAccount(accountId)).toEqual({
      accountId,
      status: "restricted",
      payoutsEnabled: false,
      transfersEnabled: false,
      detailsSubmitted: true,
    });
    expect(requestsTo("GET", `/v1/accounts/${accountId}`)).toHaveLength(3);
  });

  it("rejects an account Stripe does not know, with Stripe's reason", async () => {
    await expect(connect().retrieveAccount("acct_unknown")).rejects.toMatchObject({
      name: "PayoutProviderRefusal",
      kind: "request",
      reason: "No such account: 'acct_unknown'",
      cause: { type: "StripeInvalidRequestError", statusCode: 404 },
    });
  });

  it("makes an onboarding link with the return and refresh URLs", async () => {
    const { accountId } = await connect().createAccount({
      userId: "user_1",
      email: "creator@example.com",
      country: "US",
    });
    const url = await connect().onboardingUrl({
      accountId,
      returnUrl: "https://selfie.example/payouts?onboarding=done",
      refreshUrl: "https://selfie.example/payouts/onboarding",
    });
    expect(url).toMatch(new RegExp(`^https://connect\\.stripe\\.com/setup/e/${accountId}/`));
    const [link] = requestsTo("POST", "/v1/account_links");
    expect(Object.fromEntries(link.form)).toEqual({
      account: accountId,
      type: "account_onboarding",
      return_url: "https://selfie.example/payouts?onboarding=done",
      refresh_url: "https://selfie.example/payouts/onboarding",
    });
  });

  it("makes an Express Dashboard login link once the creator has onboarded", async () => {
    const { accountId } = await connect().createAccount({
      userId: "user_1",
      email: "creator@example.com",
      country: "US",
    });
    await expect(connect().dashboardUrl(accountId)).rejects.toMatchObject({
      name: "PayoutProviderRefusal",
      kind: "request",
      reason: expect.stringContaining("has not completed onboarding"),
    });
    stripeMock.onboard(accountId);
    expect(await connect().dashboardUrl(accountId)).toMatch(
      /^https:\/\/connect\.stripe\.com\/express\//,
    );
    expect(requestsTo("POST", `/v1/accounts/${accountId}/login_links`)).toHaveLength(2);
  });

  it("transfers a share tied to the order's charge, once per idempotency key", async () => {
    const accountId = await onboardedAccount();
    const { charge } = paidCharge();
    const request = transferRequest(accountId, { sourceTransaction: charge.id });
    const { transferId } = await connect().transfer(request);
    expect(transferId).toMatch(/^tr_/);

    const [sent] = requestsTo("POST", "/v1/transfers");
    expect(sent.idempotencyKey).toBe("transfer-order_1-user_1");
    expect(Object.fromEntries(sent.form)).toEqual({
      amount: "4000",
      currency: "usd",
      destination: accountId,
      transfer_group: "order_1",
      source_transaction: charge.id,
      "metadata[order_id]": "order_1",
      "metadata[user_id]": "user_1",
    });
    expect(stripeMock.transfers.get(transferId)).toMatchObject({
      object: "transfer",
      amount: 4000,
      amount_reversed: 0,
      destination: accountId,
      source_transaction: charge.id,
      transfer_group: "order_1",
    });

    // A retried job sends the same request again: the first transfer answers, no second one is made.
    expect(await connect().transfer(request)).toEqual({ transferId });
    expect(stripeMock.transfers.size).toBe(1);
    expect(requestsTo("POST", "/v1/transfers")).toHaveLength(2);
  });

  it("sends no source_transaction for a transfer without a charge", async () => {
    const accountId = await onboardedAccount();
    await connect().transfer(transferRequest(accountId));
    const [sent] = requestsTo("POST", "/v1/transfers");
    expect(sent.form.has("source_transaction")).toBe(false);
  });

  it("refuses the same idempotency key with other parameters, as Stripe does", async () => {
    const accountId = await onboardedAccount();
    await connect().transfer(transferRequest(accountId));
    await expect(
      connect().transfer(transferRequest(accountId, { amountCents: 3000 })),
    ).rejects.toMatchObject({ type: "StripeIdempotencyError", statusCode: 400 });
    expect(stripeMock.transfers.size).toBe(1);
  });

  it("refuses a transfer to an account that has not onboarded", async () => {
    const { accountId } = await connect().createAccount({
      userId: "user_1",
      email: "creator@example.com",
      country: "US",
    });
    await expect(connect().transfer(transferRequest(accountId))).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      code: "insufficient_capabilities_for_transfer",
    });
    expect(stripeMock.transfers.size).toBe(0);
  });

  it("reverses part of a transfer once per idempotency key, and refuses more than is left", async () => {
    const accountId = await onboardedAccount();
    const { transferId } = await connect().transfer(transferRequest(accountId));
    const reversal = {
      transferId,
      amountCents: 1500,
      idempotencyKey: "reversal-refund_1-user_1",
      metadata: { refund_id: "refund_1" },
    };
    const { reversalId } = await connect().reverseTransfer(reversal);
    expect(reversalId).toMatch(/^trr_/);

    const [sent] = requestsTo("POST", `/v1/transfers/${transferId}/reversals`);
    expect(sent.idempotencyKey).toBe("reversal-refund_1-user_1");
    expect(Object.fromEntries(sent.form)).toEqual({
      amount: "1500",
      "metadata[refund_id]": "refund_1",
    });

    expect(await connect().reverseTransfer(reversal)).toEqual({ reversalId });
    expect(stripeMock.reversals.size).toBe(1);
    expect(stripeMock.transfers.get(transferId)).toMatchObject({
      amount_reversed: 1500,
      reversed: false,
      reversals: { total_count: 1 },
    });

    // 2500 of the 4000 are left.
    await expect(
      connect().reverseTransfer({
        ...reversal,
        amountCents: 2501,
        idempotencyKey: "reversal-refund_2-user_1",
      }),
    ).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      statusCode: 400,
      param: "amount",
    });
    await connect().reverseTransfer({
      ...reversal,
      amountCents: 2500,
      idempotencyKey: "reversal-refund_3-user_1",
    });
    expect(stripeMock.transfers.get(transferId)).toMatchObject({
      amount_reversed: 4000,
      reversed: true,
    });
    expect(stripeMock.reversals.size).toBe(2);
  });

  it("rejects a reversal of a transfer Stripe does not know", async () => {
    await expect(
      connect().reverseTransfer({
        transferId: "tr_unknown",
        amountCents: 100,
        idempotencyKey: "reversal-x",
        metadata: {},
      }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe("accountStateOf", () => {
  const account = (facts: Partial<Stripe.Account>) =>
    ({
      id: "acct_1",
      object: "account",
      details_submitted: false,
      payouts_enabled: false,
      charges_enabled: false,
      ...facts,
    }) as Stripe.Account;

  it("is pending until the creator submits the onboarding form", () => {
    expect(
      accountStateOf(
        account({
          capabilities: { transfers: "inactive" },
          requirements: { disabled_reason: "requirements.past_due" } as Stripe.Account.Requirements,
        }),
      ),
    ).toEqual({
      accountId: "acct_1",
      status: "pending",
      payoutsEnabled: false,
      transfersEnabled: false,
      detailsSubmitted: false,
    });
  });

  it("is active when the transfers capability is active and nothing disables the account", () => {
    expect(
      accountStateOf(
        account({
          details_submitted: true,
          payouts_enabled: true,
          capabilities: { transfers: "active" },
          requirements: { disabled_reason: null } as Stripe.Account.Requirements,
        }),
      ),
    ).toEqual({
      accountId: "acct_1",
      status: "active",
      payoutsEnabled: true,
      transfersEnabled: true,
      detailsSubmitted: true,
    });
  });

  it("is restricted when Stripe needs more after onboarding", () => {
    const state = accountStateOf(
      account({
        details_submitted: true,
        capabilities: { transfers: "inactive" },
        requirements: { disabled_reason: "requirements.past_due" } as Stripe.Account.Requirements,
      }),
    );
    expect(state).toMatchObject({
      status: "restricted",
      transfersEnabled: false,
      detailsSubmitted: true,
    });
    // Under review: the capability may still read active, but the account is disabled.
    expect(
      accountStateOf(
        account({
          details_submitted: true,
          capabilities: { transfers: "active" },
          requirements: { disabled_reason: "under_review" } as Stripe.Account.Requirements,
        }),
      ).status,
    ).toBe("restricted");
  });

  it("reads the account of an account.updated event", async () => {
    const { accountId } = await connect().createAccount({
      userId: "user_1",
      email: "creator@example.com",
      country: "US",
    });
    stripeMock.onboard(accountId);
    const event = JSON.parse(accountUpdatedEvent(accountId));
    expect(event).toMatchObject({ object: "event", type: "account.updated", account: accountId });
    expect(accountStateOf(event.data.object)).toMatchObject({ accountId, status: "active" });
  });
});

describe("StripeCheckoutProvider refunds and charges (the real stripe library against msw)", () => {
  const checkout = () => new StripeCheckoutProvider(SECRET_KEY);

  async function paidSession() {
    const { sessionId } = await checkout().createCheckoutSession({
      orderId: "order_1",
      customerEmail: "buyer@example.com",
      currency: "usd",
      items: [{ title: "Anime Me", style: "anime", priceCents: 2500 }],
      origin: "https://selfie.example",
    });
    expect(stripeMock.session(sessionId).payment_intent).toBeNull();
    return stripeMock.complete(sessionId);
  }

  it("finds the charge of a paid session's PaymentIntent", async () => {
    const session = await paidSession();
    expect(session.payment_intent).toMatch(/^pi_/);
    expect((await checkout().retrieveSession(session.id))?.paymentIntentId).toBe(
      session.payment_intent,
    );

    const chargeId = await checkout().chargeOf(session.payment_intent!);
    expect(chargeId).toMatch(/^ch_/);
    expect(stripeMock.charges.get(chargeId!)).toMatchObject({
      object: "charge",
      amount: 2500,
      amount_refunded: 0,
      refunded: false,
      payment_intent: session.payment_intent,
      currency: "usd",
      metadata: { order_id: "order_1" },
    });
    await expect(checkout().chargeOf("pi_unknown")).rejects.toMatchObject({ statusCode: 404 });
  });

  it("refunds once per idempotency key, and no more than is left of the charge", async () => {
    const session = await paidSession();
    const refund = {
      orderId: "order_1",
      paymentIntentId: session.payment_intent,
      amountCents: 1000,
      idempotencyKey: "refund-order_1-1",
    };
    const { refundId } = await checkout().refund(refund);
    expect(refundId).toMatch(/^re_/);
    expect(await checkout().refund(refund)).toEqual({ refundId });
    expect(stripeMock.refunds.size).toBe(1);

    const [sent] = requestsTo("POST", "/v1/refunds");
    expect(sent.idempotencyKey).toBe("refund-order_1-1");
    expect(Object.fromEntries(sent.form)).toEqual({
      payment_intent: session.payment_intent,
      amount: "1000",
      reason: "requested_by_customer",
      "metadata[order_id]": "order_1",
    });
    const chargeId = (await checkout().chargeOf(session.payment_intent!))!;
    expect(stripeMock.charges.get(chargeId)).toMatchObject({
      amount_refunded: 1000,
      refunded: false,
    });

    await expect(
      checkout().refund({ ...refund, amountCents: 1501, idempotencyKey: "refund-order_1-2" }),
    ).rejects.toMatchObject({ type: "StripeInvalidRequestError", param: "amount" });
    await checkout().refund({ ...refund, amountCents: 1500, idempotencyKey: "refund-order_1-3" });
    expect(stripeMock.charges.get(chargeId)).toMatchObject({
      amount_refunded: 2500,
      refunded: true,
    });
    await expect(
      checkout().refund({ ...refund, amountCents: 1, idempotencyKey: "refund-order_1-4" }),
    ).rejects.toMatchObject({ code: "charge_already_refunded" });

    const event = JSON.parse(chargeRefundedEvent(chargeId));
    expect(event).toMatchObject({
      type: "charge.refunded",
      data: { object: { id: chargeId, amount_refunded: 2500, refunded: true } },
    });
  });
});

describe("dispute events", () => {
  it("open and close one dispute of a charge", () => {
    const { charge, paymentIntent } = paidCharge(5000);
    const opened = JSON.parse(
      disputeEvent("charge.dispute.created", { chargeId: charge.id, status: "needs_response" }),
    );
    expect(opened).toMatchObject({
      type: "charge.dispute.created",
      data: {
        object: {
          object: "dispute",
          charge: charge.id,
          payment_intent: paymentIntent.id,
          amount: 5000,
          currency: "usd",
          status: "needs_response",
          reason: "fraudulent",
        },
      },
    });
    expect(opened.data.object.id).toMatch(/^dp_/);
    expect(stripeMock.charges.get(charge.id)?.disputed).toBe(true);

    const closed = JSON.parse(
      disputeEvent("charge.dispute.closed", { chargeId: charge.id, status: "lost" }),
    );
    expect(closed.data.object).toMatchObject({
      id: opened.data.object.id,
      status: "lost",
      amount: 5000,
    });
  });
});
