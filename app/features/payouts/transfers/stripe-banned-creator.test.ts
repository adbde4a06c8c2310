import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import { jobHandlers } from "~/boot/job-kinds.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestAdmin } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { sharesOf } from "#tests/setup/payouts";
import { accountUpdatedEvent, chargeRefundedEvent, stripeMock } from "#tests/mocks/stripe";
import {
  createCheckoutSession,
  creatorWithStripeAccount,
  deliverStripeWebhook,
  payStripeSession,
  setUpStripePayoutMock,
  stripeRequestsTo,
} from "#tests/setup/stripe";
import { apiRoute } from "#tests/setup/api-routes";
import { downloadGrantsOf } from "#tests/setup/test-checkout";
import { rowWhere } from "#tests/setup/rows-where";

const statusRoute = apiRoute("/api/admin/users/{userId}/{action}");

/**
 * A ban and Stripe: the real `stripe` library against msw at api.stripe.com,
 * webhooks signed as Stripe signs them and delivered to the real route, and
 * the app's own job handlers moving the money.
 */
const { webhookSecret: WEBHOOK_SECRET, connectSecret: CONNECT_SECRET } =
  setUpStripePayoutMock("bans");

/** Runs every queued job that moves money (transfers, reversals, refunds) with the server's own handlers. */
async function runMoneyJobs() {
  const handlers = Object.fromEntries(
    Object.entries(jobHandlers()).filter(
      ([kind]) => kind.startsWith("payouts.") || kind.startsWith("market."),
    ),
  );
  await new JobWorker({
    db: getDb(),
    handlers,
    concurrency: 2,
    backoff: { baseMs: 0, maxMs: 0 },
    log: () => {},
  }).drain();
}

const deliver = (payload: string, secret = WEBHOOK_SECRET) => deliverStripeWebhook(payload, secret);

let admin: Awaited<ReturnType<typeof createTestAdmin>> | undefined;
async function setStatus(userId: string, action: "ban" | "unban") {
  admin ??= await createTestAdmin();
  const response = await callRoute(
    statusRoute.action,
    makeRequest(`/api/admin/users/${userId}/${action}`, { method: "POST", token: admin.token }),
    { userId, action },
  );
  expect(response.status).toBe(200);
}

/** A creator whose Express account exists at Stripe (onboarded when asked). */
const creatorWithAccount = (onboarded: boolean) =>
  creatorWithStripeAccount(onboarded ? { connectSecret: CONNECT_SECRET } : {});

async function openCheckout(
  listingIds: string[],
  email: string,
): Promise<{ sessionId: string; email: string }> {
  const response = await createCheckoutSession(
    listingIds.map((imageId) => ({ imageId, licenseType: "standard" })),
    { name: "Sam Stripe", email },
  );
  expect(response.status).toBe(200);
  return { sessionId: ((await response.json()) as { sessionId: string }).sessionId, email };
}

/** The buyer pays on Stripe's page and the platform endpoint hears of it. */
const completeCheckout = ({ sessionId }: { sessionId: string }) =>
  payStripeSession(sessionId, WEBHOOK_SECRET);

const requestsTo = stripeRequestsTo;

describe("a banned creator's money with Stripe", () => {
  it("a transfer queued before the ban never reaches Stripe", async () => {
    const creator = await creatorWithAccount(true);
    const { listing } = await createListing(creator.user.id, { price: 25 });
    const { order } = await completeCheckout(
      await openCheckout([listing.id], "queued@example.com"),
    );
    await setStatus(creator.user.id, "ban");
    await runMoneyJobs();
    expect(requestsTo("POST", /^\/v1\/transfers$/)).toHaveLength(0);
    expect(await sharesOf(order.id)).toMatchObject([
      { status: "held", held_from: "owed", transfer_id: null },
    ]);
  });

  it("a checkout open at the ban and completed at Stripe after it is refunded at once, once, and nothing is transferred", async () => {
    const creator = await creatorWithAccount(true);
    const { listing } = await createListing(creator.user.id, { price: 40 });
    const checkout = await openCheckout([listing.id], "open-at-ban@example.com");
    await setStatus(creator.user.id, "ban");
    const { order, chargeId } = await completeCheckout(checkout);
    expect(order).toMatchObject({ status: "refunded", refunded_cents: 4000 });
    expect(order.payment_intent_id).toMatch(/^pi_/);
    expect(await downloadGrantsOf(order.id)).toHaveLength(0);

    await runMoneyJobs();
    const refunds = requestsTo("POST", /^\/v1\/refunds$/);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].form.get("payment_intent")).toBe(order.payment_intent_id);
    expect(refunds[0].form.get("amount")).toBe("4000");
    expect(refunds[0].idempotencyKey).toBe(`refund-${order.id}-0`);
    expect(stripeMock.charges.get(chargeId)).toMatchObject({
      amount_refunded: 4000,
      refunded: true,
    });
    expect(requestsTo("POST", /^\/v1\/transfers$/)).toHaveLength(0);
    expect(await sharesOf(order.id)).toMatchObject([
      { status: "reversed", transfer_id: null, creator_reversed_cents: 3400 },
    ]);

    // Stripe's echo of the refund records nothing new; the order's refund reason stays the ban's.
    expect((await deliver(chargeRefundedEvent(chargeId))).status).toBe(200);
    await runMoneyJobs();
    const after = await rowWhere("orders", "*", "id", order.id);
    expect(after).toMatchObject({
      status: "refunded",
      refunded_cents: 4000,
      refund_reason: order.refund_reason,
    });
    expect(requestsTo("POST", /^\/v1\/refunds$/)).toHaveLength(1);
  });

  it("account.updated for a banned creator releases nothing; the unban sends the held share", async () => {
    const creator = await creatorWithAccount(false);
    const { listing } = await createListing(creator.user.id, { price: 20 });
    const { order } = await completeCheckout(
      await openCheckout([listing.id], "owed-at-ban@example.com"),
    );
    await runMoneyJobs();
    expect(await sharesOf(order.id)).toMatchObject([{ status: "owed" }]);

    await setStatus(creator.user.id, "ban");
    stripeMock.onboard(creator.accountId);
    expect((await deliver(accountUpdatedEvent(creator.accountId), CONNECT_SECRET)).status).toBe(
      200,
    );
    await runMoneyJobs();
    expect(requestsTo("POST", /^\/v1\/transfers$/)).toHaveLength(0);
    expect(await sharesOf(order.id)).toMatchObject([{ status: "held", held_from: "owed" }]);

    await setStatus(creator.user.id, "unban");
    await runMoneyJobs();
    const transfers = requestsTo("POST", /^\/v1\/transfers$/);
    expect(transfers).toHaveLength(1);
    expect(transfers[0].form.get("destination")).toBe(creator.accountId);
    expect(await sharesOf(order.id)).toMatchObject([
      { status: "transferred", transferred_cents: 1700 },
    ]);
  });
});
