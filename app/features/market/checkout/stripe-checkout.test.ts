import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { loader as marketplacePage } from "~/routes/_market+/marketplace";
import { action as cartAction } from "~/routes/_market+/cart";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { checkoutEvent, lineItemsOf, signPayload, stripeMock } from "#tests/mocks/stripe";
import { createCheckoutSession, postStripeWebhook, setUpStripeMock } from "#tests/setup/stripe";
import { checkoutSessionHash } from "~/features/market/orders/orders.server";
import { apiRoute } from "#tests/setup/api-routes";
import { cartCookieWith, downloadGrantsOf, earningsOf } from "#tests/setup/test-checkout";
import { rowWhere } from "#tests/setup/rows-where";

const { loader: paymentStatusApi } = apiRoute("/api/payment-status/{sessionId}");

const WEBHOOK_SECRET = "whsec_test_secret_for_selfie_studio";
setUpStripeMock({ key: "sk_test_selfie_studio", webhookSecret: WEBHOOK_SECRET });

const buyer = { name: "Sam Stripe", email: "sam@example.com" };

async function checkout(listingIds: string[], extra: Record<string, unknown> = {}) {
  const response = await createCheckoutSession(
    listingIds.map((imageId) => ({ imageId, licenseType: "standard", price: 1 })),
    buyer,
    extra,
  );
  return { status: response.status, body: await response.json() };
}

async function postWebhook(payload: string, signature?: string | null) {
  const response = await postStripeWebhook(payload, signature);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  return { status: response.status, body: await response.json() };
}

async function ledgerOf(orderId: string) {
  const [order, grants, earnings] = await Promise.all([
    rowWhere("orders", "*", "id", orderId),
    downloadGrantsOf(orderId),
    earningsOf(orderId),
  ]);
  return { order, grants, earnings };
}

async function orderOf(sessionId: string) {
  return rowWhere("orders", "*", "checkout_session_hash", checkoutSessionHash(sessionId));
}

describe("Stripe Checkout (the real stripe library against msw)", () => {
  it("creates a payment session with one line item per listing at the database's prices, the order id and an idempotency key", async () => {
    const creator = await createTestUser();
    const a = await createListing(creator.user.id, {
      title: "Anime Me",
      style: "anime",
      price: 25,
    });
    const b = await createListing(creator.user.id, {
      title: "Pro Me",
      style: "professional",
      price: "75.50",
    });
    const { status, body } = await checkout([a.listing.id, b.listing.id]);
    expect(status).toBe(200);
    expect(body.url).toBe(`https://checkout.stripe.com/c/pay/${body.sessionId}`);
    expect(body.sessionId).toMatch(/^cs_test_/);

    const create = stripeMock.requests.find((request) => request.method === "POST")!;
    const order = await orderOf(body.sessionId);
    expect(order).toMatchObject({
      provider: "stripe",
      status: "pending",
      total_cents: 10050,
      checkout_session_hash: checkoutSessionHash(body.sessionId),
    });
    expect(create.authorization).toBe("Bearer sk_test_selfie_studio");
    expect(create.idempotencyKey).toBe(`checkout-session-${order.id}`);
    const form = create.form;
    expect(form.get("mode")).toBe("payment");
    expect(form.get("customer_email")).toBe("sam@example.com");
    expect(form.get("metadata[order_id]")).toBe(order.id);
    expect(form.get("client_reference_id")).toBe(order.id);
    expect(form.get("payment_intent_data[metadata][order_id]")).toBe(order.id);
    expect(form.get("success_url")).toBe(
      "http://localhost:3000/marketplace?session_id={CHECKOUT_SESSION_ID}&success=true",
    );
    expect(form.get("cancel_url")).toBe("http://localhost:3000/marketplace?checkout=cancelled");
    expect(lineItemsOf(form)).toEqual([
      { amount: 2500, quantity: 1, name: "Anime Me", currency: "usd" },
      { amount: 7550, quantity: 1, name: "Pro Me", currency: "usd" },
    ]);
  });

  it("answers 502 'Checkout Failed' copy when Stripe refuses, and marks the order failed", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    stripeMock.failCreate = true;
    const { status, body } = await checkout([listing.id]);
    expect(status).toBe(502);
    expect(body.message).toBe(
      "Something went wrong creating your checkout session. Please try again.",
    );
    const order = await getDb()
      .selectFrom("order_items")
      .innerJoin("orders", "orders.id", "order_items.order_id")
      .select("orders.status")
      .where("order_items.listing_id", "=", listing.id)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe("failed");
  });

  it("the no-JS checkout form redirects the browser to Stripe's page", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const cookie = await cartCookieWith(listing.id);
    const response = await callRoute(
      cartAction,
      formRequest(
        "/cart",
        { intent: "checkout", name: "Sam", email: "sam@example.com" },
        { cookie },
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(
      /^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/,
    );
  });

  it("the success return retrieves the session from Stripe and fulfills a paid order", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { price: 40 });
    const { body } = await checkout([listing.id]);
    // Before paying: the return shows it is not complete, and nothing is granted.
    let page = await (
      await callRoute(
        marketplacePage,
        makeRequest(`/marketplace?session_id=${body.sessionId}&success=true`),
      )
    ).json();
    expect(page.purchase).toMatchObject({ success: false, paymentStatus: "processing" });

    stripeMock.complete(body.sessionId);
    page = await (
      await callRoute(
        marketplacePage,
        makeRequest(`/marketplace?session_id=${body.sessionId}&success=true`),
      )
    ).json();
    expect(page.purchase).toMatchObject({
      success: true,
      paymentStatus: "completed",
      testMode: false,
    });
    expect(page.purchase.downloads).toHaveLength(1);
    const retrieves = stripeMock.requests.filter(
      (request) =>
        request.method === "GET" && request.path === `/v1/checkout/sessions/${body.sessionId}`,
    );
    expect(retrieves.length).toBe(2);

    const { order, grants, earnings } = await ledgerOf((await orderOf(body.sessionId)).id);
    expect(order.status).toBe("paid");
    expect(grants).toHaveLength(1);
    expect(earnings.map((row) => [row.amount_cents, row.platform_fee_cents])).toEqual([
      [3400, 600],
    ]);

    // Once paid, status checks no longer call Stripe.
    const before = stripeMock.requests.length;
    const status = await callRoute(
      paymentStatusApi,
      makeRequest(`/api/payment-status/${body.sessionId}`),
      { sessionId: body.sessionId },
    );
    expect((await status.json()).success).toBe(true);
    expect(stripeMock.requests.length).toBe(before);
  });

  it("an amount that does not match the order is not fulfilled", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { price: 40 });
    const { body } = await checkout([listing.id]);
    const session = stripeMock.complete(body.sessionId);
    session.amount_total = 100;
    const payload = checkoutEvent("checkout.session.completed", session);
    expect((await postWebhook(payload, signPayload(payload, WEBHOOK_SECRET))).status).toBe(200);
    expect((await orderOf(body.sessionId)).status).toBe("pending");
  });
});

describe("POST /api/webhooks/stripe", () => {
  it("verifies the signature over the raw body: good 200, bad 400, missing 400, tampered 400", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const { body } = await checkout([listing.id]);
    const session = stripeMock.complete(body.sessionId);
    const payload = checkoutEvent("checkout.session.completed", session);

    const missing = await postWebhook(payload, null);
    expect(missing).toEqual({ status: 400, body: { message: "Missing Stripe-Signature header" } });
    const wrongSecret = await postWebhook(payload, signPayload(payload, "whsec_someone_else"));
    expect(wrongSecret).toEqual({ status: 400, body: { message: "Invalid webhook signature" } });
    const stale = await postWebhook(
      payload,
      signPayload(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600),
    );
    expect(stale.status).toBe(400);
    const tampered = payload.replace('"payment_status":"paid"', '"payment_status":"paid" ');
    expect((await postWebhook(tampered, signPayload(payload, WEBHOOK_SECRET))).status).toBe(400);
    expect((await orderOf(body.sessionId)).status).toBe("pending");

    const good = await postWebhook(payload, signPayload(payload, WEBHOOK_SECRET));
    expect(good).toEqual({ status: 200, body: { received: true, outcome: "processed" } });
    const { order, grants, earnings } = await ledgerOf((await orderOf(body.sessionId)).id);
    expect(order.status).toBe("paid");
    expect(grants).toHaveLength(1);
    expect(earnings).toHaveLength(1);
  });

  it("a replayed event changes nothing", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const { body } = await checkout([listing.id]);
    const payload = checkoutEvent(
      "checkout.session.completed",
      stripeMock.complete(body.sessionId),
    );
    const signature = signPayload(payload, WEBHOOK_SECRET);
    expect((await postWebhook(payload, signature)).body.outcome).toBe("processed");
    const first = await ledgerOf((await orderOf(body.sessionId)).id);
    for (let i = 0; i < 3; i++) {
      expect(await postWebhook(payload, signPayload(payload, WEBHOOK_SECRET))).toEqual({
        status: 200,
        body: { received: true, outcome: "duplicate" },
      });
    }
    const again = await ledgerOf(first.order.id);
    expect(again.order.paid_at).toBe(first.order.paid_at);
    expect(again.grants.map((grant) => grant.token_hash)).toEqual(
      first.grants.map((grant) => grant.token_hash),
    );
    expect(again.earnings.map((row) => row.id)).toEqual(first.earnings.map((row) => row.id));
  });

  it("a delayed payment: completed-unpaid waits, async_payment_succeeded fulfills", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const { body } = await checkout([listing.id]);
    const unpaid = stripeMock.complete(body.sessionId, "unpaid");
    const completed = checkoutEvent("checkout.session.completed", { ...unpaid });
    expect(
      (await postWebhook(completed, signPayload(completed, WEBHOOK_SECRET))).body.outcome,
    ).toBe("processed");
    expect((await orderOf(body.sessionId)).status).toBe("pending");
    const status = await callRoute(
      paymentStatusApi,
      makeRequest(`/api/payment-status/${body.sessionId}`),
      { sessionId: body.sessionId },
    );
    expect(await status.json()).toMatchObject({
      success: false,
      paymentStatus: "processing",
      downloads: [],
    });

    const paid = { ...unpaid, payment_status: "paid" };
    const succeeded = checkoutEvent("checkout.session.async_payment_succeeded", paid);
    expect(
      (await postWebhook(succeeded, signPayload(succeeded, WEBHOOK_SECRET))).body.outcome,
    ).toBe("processed");
    const { order, grants, earnings } = await ledgerOf((await orderOf(body.sessionId)).id);
    expect([order.status, grants.length, earnings.length]).toEqual(["paid", 1, 1]);
  });

  it("async_payment_failed fails the order; expired expires a pending one; neither touches a paid order", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const failing = (await checkout([listing.id])).body.sessionId;
    const expiring = (await checkout([listing.id])).body.sessionId;
    const paidId = (await checkout([listing.id])).body.sessionId;

    const failed = checkoutEvent(
      "checkout.session.async_payment_failed",
      stripeMock.complete(failing, "unpaid"),
    );
    await postWebhook(failed, signPayload(failed, WEBHOOK_SECRET));
    const expired = checkoutEvent("checkout.session.expired", stripeMock.expire(expiring));
    await postWebhook(expired, signPayload(expired, WEBHOOK_SECRET));
    const completed = checkoutEvent("checkout.session.completed", stripeMock.complete(paidId));
    await postWebhook(completed, signPayload(completed, WEBHOOK_SECRET));
    const lateExpiry = checkoutEvent("checkout.session.expired", {
      ...stripeMock.session(paidId),
      status: "expired",
    });
    await postWebhook(lateExpiry, signPayload(lateExpiry, WEBHOOK_SECRET));

    const statusOf = async (sessionId: string) =>
      (await (
        await callRoute(paymentStatusApi, makeRequest(`/api/payment-status/${sessionId}`), {
          sessionId,
        })
      ).json()) as {
        paymentStatus: string;
        error: string | null;
      };
    expect(await statusOf(failing)).toMatchObject({
      paymentStatus: "failed",
      error: "The payment failed",
    });
    expect(await statusOf(expiring)).toMatchObject({
      paymentStatus: "expired",
      error: "The checkout session expired",
    });
    expect(await statusOf(paidId)).toMatchObject({ paymentStatus: "completed" });
  });

  it("acknowledges events it does not handle and sessions that are not ours", async () => {
    const other = checkoutEvent("customer.created", { id: "cus_1", object: "customer" });
    expect((await postWebhook(other, signPayload(other, WEBHOOK_SECRET))).body.outcome).toBe(
      "ignored",
    );
    const foreign = checkoutEvent("checkout.session.completed", {
      id: "cs_test_foreign",
      object: "checkout.session",
      payment_status: "paid",
      status: "complete",
      metadata: {},
    });
    expect((await postWebhook(foreign, signPayload(foreign, WEBHOOK_SECRET))).body.outcome).toBe(
      "ignored",
    );
  });

  it("race: webhooks and success returns at the same time, many times, fulfill exactly once", async () => {
    const creator = await createTestUser();
    const first = await createListing(creator.user.id, { price: 19.99 });
    const second = await createListing(creator.user.id, { price: 5 });
    for (let round = 0; round < 5; round++) {
      const { body } = await checkout([first.listing.id, second.listing.id]);
      const session = stripeMock.complete(body.sessionId);
      const calls: Promise<unknown>[] = [];
      for (let i = 0; i < 8; i++) {
        const completed = checkoutEvent("checkout.session.completed", session);
        const succeeded = checkoutEvent("checkout.session.async_payment_succeeded", session);
        calls.push(postWebhook(completed, signPayload(completed, WEBHOOK_SECRET)));
        calls.push(postWebhook(succeeded, signPayload(succeeded, WEBHOOK_SECRET)));
        calls.push(
          callRoute(
            marketplacePage,
            makeRequest(`/marketplace?session_id=${body.sessionId}&success=true`),
          ),
        );
        calls.push(
          callRoute(paymentStatusApi, makeRequest(`/api/payment-status/${body.sessionId}`), {
            sessionId: body.sessionId,
          }),
        );
      }
      const results = await Promise.all(calls);
      for (const result of results) expect((result as { status: number }).status).toBe(200);
      const { order, grants, earnings } = await ledgerOf((await orderOf(body.sessionId)).id);
      expect(order.status).toBe("paid");
      expect(grants).toHaveLength(2);
      expect(new Set(grants.map((grant) => grant.order_item_id)).size).toBe(2);
      expect(earnings).toHaveLength(2);
      expect(
        earnings.reduce((sum, row) => sum + row.amount_cents + row.platform_fee_cents, 0),
      ).toBe(2499);
    }
  });
});
