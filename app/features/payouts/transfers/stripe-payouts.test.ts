import { describe, expect, it } from "vitest";
import { http } from "msw";
import { createStripeClient } from "~/infra/payments/stripe-checkout.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { runPayoutJobs, sharesOf } from "#tests/setup/payouts";
import {
  accountUpdatedEvent,
  chargeRefundedEvent,
  disputeEvent,
  stripeHandlers,
  stripeMock,
} from "#tests/mocks/stripe";
import {
  creatorWithStripeAccount,
  deliverStripeWebhook,
  paidStripeSale,
  postPayoutOnboarding,
  setUpStripePayoutMock,
  stripePayoutDeps,
  stripeRequestsTo,
} from "#tests/setup/stripe";
import { apiRoute } from "#tests/setup/api-routes";
import { firstRowWhere, rowWhere, selectWhere } from "#tests/setup/rows-where";

const { loader: payoutsApi } = apiRoute("/api/token-payouts");
const { action: refundApi } = apiRoute("/api/admin/orders/{orderId}/refund");

/**
 * The Stripe path of payouts, refunds and disputes: the real `stripe` library
 * against msw at api.stripe.com, webhooks signed as Stripe signs them and
 * delivered to the real route.
 */
const {
  key: KEY,
  webhookSecret: WEBHOOK_SECRET,
  connectSecret: CONNECT_SECRET,
  server,
} = setUpStripePayoutMock("payouts");
const refundHandler = stripeHandlers.find(
  (handler) => handler.info.header === "POST https://api.stripe.com/v1/refunds",
)!;

const deps = () => stripePayoutDeps(KEY);
const runJobs = () => runPayoutJobs(deps());

const deliver = (payload: string, secret = WEBHOOK_SECRET) => deliverStripeWebhook(payload, secret);

/** A creator whose Express account finished onboarding (as Stripe reports it by account.updated). */
const onboardedCreator = () => creatorWithStripeAccount({ connectSecret: CONNECT_SECRET });

/** A Stripe sale of the listings, paid at Stripe and fulfilled by its webhook; answers the order and its charge. */
const paidSale = (listingIds: string[], email: string) =>
  paidStripeSale(listingIds, email, WEBHOOK_SECRET);

let admin: Awaited<ReturnType<typeof createTestAdmin>> | undefined;
const theAdmin = async () => (admin ??= await createTestAdmin());

const requestsTo = stripeRequestsTo;

describe("Stripe Connect payouts", () => {
  it("creates an Express account with the transfers capability, links to Stripe's onboarding, and follows account.updated", async () => {
    const creator = await createTestUser();
    const first = await postPayoutOnboarding(creator.token);
    const { url } = (await first.json()) as { url: string };
    expect(url).toMatch(/^https:\/\/connect\.stripe\.com\//);
    const [create] = requestsTo("POST", /^\/v1\/accounts$/);
    expect(create.form.get("type")).toBe("express");
    expect(create.form.get("capabilities[transfers][requested]")).toBe("true");
    expect(create.form.get("email")).toBe(creator.user.email);
    expect(create.idempotencyKey).toBe(`payout-account-${creator.user.id}-US`);
    expect(create.form.get("country")).toBe("US");
    expect(create.form.has("tos_acceptance[service_agreement]")).toBe(false);
    const [link] = requestsTo("POST", /^\/v1\/account_links$/);
    expect(link.form.get("type")).toBe("account_onboarding");
    expect(link.form.get("return_url")).toBe("http://localhost:3000/payouts?onboarding=return");
    expect(link.form.get("refresh_url")).toBe("http://localhost:3000/payouts/onboard");

    // Again: the same account, a fresh link.
    await postPayoutOnboarding(creator.token);
    expect(requestsTo("POST", /^\/v1\/accounts$/)).toHaveLength(1);
    expect(requestsTo("POST", /^\/v1\/account_links$/)).toHaveLength(2);

    const payouts = async () =>
      (await (
        await callRoute(payoutsApi, makeRequest("/api/token-payouts", { token: creator.token }))
      ).json()) as { account: { provider: string; status: string; payoutsEnabled: boolean } };
    expect((await payouts()).account).toEqual({
      provider: "stripe",
      status: "pending",
      payoutsEnabled: false,
      country: "US",
      crossBorder: false,
    });
    const accountId = link.form.get("account")!;
    stripeMock.onboard(accountId);
    // Signed with the Connect endpoint's secret.
    expect((await deliver(accountUpdatedEvent(accountId), CONNECT_SECRET)).status).toBe(200);
    expect((await payouts()).account).toEqual({
      provider: "stripe",
      status: "active",
      payoutsEnabled: true,
      country: "US",
      crossBorder: false,
    });
    stripeMock.restrict(accountId);
    await deliver(accountUpdatedEvent(accountId), CONNECT_SECRET);
    expect((await payouts()).account.status).toBe("restricted");
    // A signature from neither endpoint is refused and changes nothing.
    expect((await deliver(accountUpdatedEvent(accountId), "whsec_someone_else")).status).toBe(400);
  });

  it("transfers each share with the order as transfer_group, the charge as source_transaction and the ledger row as idempotency key, once", async () => {
    const cleo = await onboardedCreator();
    const dan = await onboardedCreator();
    const a = await createListing(cleo.user.id, { price: 25 });
    const b = await createListing(dan.user.id, { price: 10 });
    const { order, chargeId } = await paidSale(
      [a.listing.id, b.listing.id],
      "transfer@example.com",
    );
    expect(order.payment_intent_id).toMatch(/^pi_/);
    await runJobs();
    await runJobs();

    const shares = await sharesOf(order.id);
    const transfers = requestsTo("POST", /^\/v1\/transfers$/);
    expect(transfers).toHaveLength(2);
    for (const share of shares) {
      const sent = transfers.find((request) => request.idempotencyKey === share.id)!;
      expect(sent.form.get("amount")).toBe(String(share.amount_cents));
      expect(sent.form.get("currency")).toBe("usd");
      expect(sent.form.get("destination")).toBe(
        share.creator_id === cleo.user.id ? cleo.accountId : dan.accountId,
      );
      expect(sent.form.get("transfer_group")).toBe(order.id);
      expect(sent.form.get("source_transaction")).toBe(chargeId);
      expect(share).toMatchObject({ status: "transferred", transferred_cents: share.amount_cents });
      expect(stripeMock.transfers.get(share.transfer_id!)?.amount).toBe(share.amount_cents);
    }
    expect([...stripeMock.transfers.values()]).toHaveLength(2);
  });

  it("a share owed to a creator without an account is transferred when account.updated says the account is ready", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { price: 12.5 });
    const { order } = await paidSale([listing.id], "owed@example.com");
    await runJobs();
    expect(await sharesOf(order.id)).toMatchObject([{ status: "owed" }]);
    await postPayoutOnboarding(creator.token);
    const { account_id } = await rowWhere(
      "payout_accounts",
      "account_id",
      "user_id",
      creator.user.id,
    );
    stripeMock.onboard(account_id);
    await deliver(accountUpdatedEvent(account_id), CONNECT_SECRET);
    await runJobs();
    expect(await sharesOf(order.id)).toMatchObject([
      { status: "transferred", transferred_cents: 1062 },
    ]);
  });
});

describe("refunds through Stripe", () => {
  it("the admin's refund refunds the PaymentIntent once, reverses each transfer once, and the charge.refunded echo changes nothing", async () => {
    const admin = await theAdmin();
    const creator = await onboardedCreator();
    const { listing } = await createListing(creator.user.id, { price: 20 });
    const { order, chargeId } = await paidSale([listing.id], "admin-refund@example.com");
    await runJobs();

    const refund = await callRoute(
      refundApi,
      makeRequest(`/api/admin/orders/${order.id}/refund`, {
        json: { reason: "Asked by the buyer" },
        token: admin.token,
      }),
      { orderId: order.id },
    );
    expect(refund.status).toBe(200);
    expect(await refund.json()).toMatchObject({
      id: order.id,
      status: "refunded",
      refunded: "20",
      total: "20",
    });
    const [refundRequest] = requestsTo("POST", /^\/v1\/refunds$/);
    expect(refundRequest.form.get("payment_intent")).toBe(order.payment_intent_id);
    expect(refundRequest.form.get("amount")).toBe("2000");
    expect(refundRequest.idempotencyKey).toBe(`refund-${order.id}-0`);

    expect((await deliver(chargeRefundedEvent(chargeId))).body.outcome).toBe("processed");
    await runJobs();
    await runJobs();
    const [share] = await sharesOf(order.id);
    expect(share).toMatchObject({ status: "reversed", transfer_reversed_cents: 1700 });
    const reversals = requestsTo("POST", /^\/v1\/transfers\/[^/]+\/reversals$/);
    expect(reversals).toHaveLength(1);
    expect(reversals[0].path).toBe(`/v1/transfers/${share.transfer_id}/reversals`);
    expect(reversals[0].form.get("amount")).toBe("1700");
    expect(reversals[0].idempotencyKey).toBe(`${share.id}-reversal-1700`);
    expect(stripeMock.transfers.get(share.transfer_id!)).toMatchObject({
      amount_reversed: 1700,
      reversed: true,
    });

    // Refunding again is a conflict, and asks Stripe nothing.
    const again = await callRoute(
      refundApi,
      makeRequest(`/api/admin/orders/${order.id}/refund`, { json: {}, token: admin.token }),
      { orderId: order.id },
    );
    expect(again.status).toBe(409);
    expect(requestsTo("POST", /^\/v1\/refunds$/)).toHaveLength(1);
  });

  it("a refund made in Stripe's dashboard arrives as charge.refunded: in full it ends the order, in part it takes back each share's part", async () => {
    const creator = await onboardedCreator();
    const { listing } = await createListing(creator.user.id, { price: 40 });
    const stripe = createStripeClient(KEY);

    const partial = await paidSale([listing.id], "dashboard-partial@example.com");
    await runJobs();
    await stripe.refunds.create({ charge: partial.chargeId, amount: 1000 });
    expect((await deliver(chargeRefundedEvent(partial.chargeId))).body.outcome).toBe("processed");
    await runJobs();
    const [kept] = await sharesOf(partial.order.id);
    expect(kept).toMatchObject({
      status: "transferred",
      creator_reversed_cents: 850,
      platform_reversed_cents: 150,
      transfer_reversed_cents: 850,
    });
    expect(
      await firstRowWhere("orders", ["status", "refunded_cents"], "id", partial.order.id),
    ).toEqual({ status: "paid", refunded_cents: 1000 });

    // The rest, later: the order is refunded, and the second reversal takes the rest of the transfer.
    await stripe.refunds.create({ charge: partial.chargeId });
    await deliver(chargeRefundedEvent(partial.chargeId));
    await runJobs();
    const [ended] = await sharesOf(partial.order.id);
    expect(ended).toMatchObject({ status: "reversed", transfer_reversed_cents: 3400 });
    expect(stripeMock.transfers.get(ended.transfer_id!)).toMatchObject({
      amount_reversed: 3400,
      reversed: true,
    });
    expect(requestsTo("POST", /\/reversals$/).map((request) => request.form.get("amount"))).toEqual(
      ["850", "2550"],
    );
  });

  it("the admin's refund and Stripe's charge.refunded at the same moment, many times: one refund, one reversal per share", async () => {
    const admin = await theAdmin();
    const cleo = await onboardedCreator();
    const dan = await onboardedCreator();
    const a = await createListing(cleo.user.id, { price: 25 });
    const b = await createListing(dan.user.id, { price: 15 });
    const winners = new Set<string | null>();
    for (let round = 0; round < 8; round++) {
      const { order, chargeId } = await paidSale(
        [a.listing.id, b.listing.id],
        `race-${round}@example.com`,
      );
      await runJobs();
      // Stripe sends the webhook as soon as the refund exists. In odd rounds it lands while the admin's request
      // is still on its way back; in even rounds Stripe's answer to the admin waits until the webhook was handled.
      let webhookHandled!: () => void;
      const handled = new Promise<void>((resolve) => (webhookHandled = resolve));
      if (round % 2 === 0) {
        server.use(
          http.post("https://api.stripe.com/v1/refunds", async ({ request, requestId }) => {
            const result = await refundHandler.run({ request, requestId });
            await handled;
            return result?.response;
          }),
        );
      }
      const adminRefund = callRoute(
        refundApi,
        makeRequest(`/api/admin/orders/${order.id}/refund`, { json: {}, token: admin.token }),
        { orderId: order.id },
      );
      const webhook = (async () => {
        while (!stripeMock.charges.get(chargeId)?.refunded)
          await new Promise((resolve) => setImmediate(resolve));
        const delivered = await deliver(chargeRefundedEvent(chargeId));
        webhookHandled();
        return delivered;
      })();
      const [answer, echo] = await Promise.all([adminRefund, webhook]);
      expect(answer.status).toBe(200);
      expect(echo.status).toBe(200);
      await Promise.all([runJobs(), runJobs()]);
      server.resetHandlers();
      winners.add((await rowWhere("orders", "refund_reason", "id", order.id)).refund_reason);

      const refunds = [...stripeMock.refunds.values()].filter(
        (refund) => refund.payment_intent === order.payment_intent_id,
      );
      expect(refunds).toHaveLength(1);
      const shares = await sharesOf(order.id);
      for (const share of shares) {
        expect(share).toMatchObject({
          status: "reversed",
          transfer_reversed_cents: share.amount_cents,
        });
        expect(
          [...stripeMock.reversals.values()].filter(
            (reversal) => reversal.transfer === share.transfer_id,
          ),
        ).toHaveLength(1);
      }
      const notices = await selectWhere("jobs", "payload", "kind", "mail.send");
      expect(
        notices.filter(
          (row) =>
            JSON.parse(row.payload).to === `race-${round}@example.com` &&
            /refunded/.test(JSON.parse(row.payload).subject),
        ),
      ).toHaveLength(1);
    }
    // Each side won some rounds: the refund was recorded by the webhook first and by the admin's request first.
    expect(winners).toEqual(new Set(["Refunded in Stripe", "Refunded by the admin"]));
  });
});

describe("disputes through Stripe", () => {
  it("charge.dispute.created holds the shares and suspends the order; closed as won restores it, as lost reverses the transfers", async () => {
    const creator = await onboardedCreator();
    const { listing } = await createListing(creator.user.id, { price: 30 });
    const won = await paidSale([listing.id], "dispute-won@example.com");
    const lost = await paidSale([listing.id], "dispute-lost@example.com");
    await runJobs();
    const statusOf = async (orderId: string) =>
      await rowWhere("orders", ["status", "dispute_status", "refunded_cents"], "id", orderId);

    for (const sale of [won, lost]) {
      expect(
        (
          await deliver(
            disputeEvent("charge.dispute.created", {
              chargeId: sale.chargeId,
              status: "needs_response",
            }),
          )
        ).body.outcome,
      ).toBe("processed");
      expect(await statusOf(sale.order.id)).toMatchObject({
        status: "disputed",
        dispute_status: "needs_response",
      });
      expect(await sharesOf(sale.order.id)).toMatchObject([
        { status: "held", held_from: "transferred" },
      ]);
    }
    await deliver(disputeEvent("charge.dispute.closed", { chargeId: won.chargeId, status: "won" }));
    await deliver(
      disputeEvent("charge.dispute.closed", { chargeId: lost.chargeId, status: "lost" }),
    );
    await runJobs();
    expect(await statusOf(won.order.id)).toEqual({
      status: "paid",
      dispute_status: "won",
      refunded_cents: 0,
    });
    expect(await sharesOf(won.order.id)).toMatchObject([
      { status: "transferred", transfer_reversed_cents: 0 },
    ]);
    expect(await statusOf(lost.order.id)).toEqual({
      status: "refunded",
      dispute_status: "lost",
      refunded_cents: 3000,
    });
    const [reversed] = await sharesOf(lost.order.id);
    expect(reversed).toMatchObject({ status: "reversed", transfer_reversed_cents: 2550 });
    expect(requestsTo("POST", /\/reversals$/)).toHaveLength(1);
  });
});
