import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setupServer } from "msw/node";
import { getDb } from "~/infra/db.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { signPayload, stripeEvent, stripeHandlers, stripeMock } from "#tests/mocks/stripe";
import { apiRoute } from "#tests/setup/api-routes";

const { action: createSessionApi } = apiRoute("/api/create-checkout-session");
const { action: webhookRoute } = apiRoute("/api/webhooks/stripe");
const { action: onboardApi } = apiRoute("/api/payouts/onboard");

/**
 * Each Stripe event is taken for what the secret that verified it says it is:
 * the platform endpoint's events (its secret) are the platform's own and name
 * no connected account; the Connect endpoint's events (its secret) happened on
 * a creator's connected account and name it. Anything else is refused (400)
 * and changes nothing. Real signatures, made by the stripe library.
 */
const WEBHOOK_SECRET = "whsec_routing_platform";
const CONNECT_SECRET = "whsec_routing_connect";
vi.hoisted(() => {
  process.env.STRIPE_SECRET_KEY = "sk_test_selfie_routing";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_routing_platform";
  process.env.STRIPE_CONNECT_WEBHOOK_SECRET = "whsec_routing_connect";
});

const server = setupServer(...stripeHandlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  stripeMock.reset();
});
afterAll(() => server.close());

/** Delivers a payload signed with `secret` (at `signedAt`, Unix seconds; now by default). */
async function deliver(payload: string, secret: string, signedAt?: number) {
  const response = await callRoute(
    webhookRoute,
    makeRequest("/api/webhooks/stripe", {
      method: "POST",
      body: payload,
      headers: {
        "Content-Type": "application/json",
        "Stripe-Signature": signPayload(payload, secret, signedAt),
      },
      origin: "none",
    }),
  );
  return {
    status: response.status,
    body: (await response.json()) as { received?: boolean; outcome?: string; message?: string },
  };
}

/** A Stripe checkout of one listing, paid at Stripe; its webhook not yet delivered. */
let buyers = 0;
async function paidSession() {
  const email = `routing-${++buyers}@example.com`;
  const creator = await createTestUser();
  const { listing } = await createListing(creator.user.id, { price: 20 });
  const response = await callRoute(
    createSessionApi,
    makeRequest("/api/create-checkout-session", {
      json: {
        cartItems: [{ imageId: listing.id, licenseType: "standard" }],
        customerInfo: { name: "Sam", email },
      },
    }),
  );
  const { sessionId } = (await response.json()) as { sessionId: string };
  return { session: stripeMock.complete(sessionId), email };
}

const orderStatus = async (email: string) =>
  (
    await getDb()
      .selectFrom("orders")
      .select("status")
      .where("customer_email", "=", email)
      .executeTakeFirstOrThrow()
  ).status;

/** A creator's Express account, created at Stripe and not yet onboarded. */
async function pendingAccount() {
  const creator = await createTestUser();
  await callRoute(
    onboardApi,
    makeRequest("/api/payouts/onboard", {
      method: "POST",
      token: creator.token,
      json: { country: "US" },
    }),
  );
  const { account_id: accountId } = await getDb()
    .selectFrom("payout_accounts")
    .select("account_id")
    .where("user_id", "=", creator.user.id)
    .executeTakeFirstOrThrow();
  return accountId;
}
const accountStatus = async (accountId: string) =>
  (
    await getDb()
      .selectFrom("payout_accounts")
      .select("status")
      .where("account_id", "=", accountId)
      .executeTakeFirstOrThrow()
  ).status;
const eventsRecorded = async () =>
  (await getDb().selectFrom("webhook_events").select("id").execute()).length;

describe("POST /api/webhooks/stripe routes each event by the secret that verified it", () => {
  it("the platform secret: an event naming a connected account is refused and changes nothing", async () => {
    const { session, email } = await paidSession();
    const before = await eventsRecorded();
    const named = stripeEvent("checkout.session.completed", session, undefined, {
      account: "acct_1SomeCreator0000000000",
    });
    expect(await deliver(named, WEBHOOK_SECRET)).toEqual({
      status: 400,
      body: { message: expect.stringMatching(/platform endpoint.*connected account/i) },
    });
    expect(await orderStatus(email)).toBe("pending");
    expect(await eventsRecorded()).toBe(before);

    const own = stripeEvent("checkout.session.completed", session);
    expect(await deliver(own, WEBHOOK_SECRET)).toEqual({
      status: 200,
      body: { received: true, outcome: "processed" },
    });
    expect(await orderStatus(email)).toBe("paid");
  });

  it("the Connect secret: an event without a connected account is refused, and a connected account's checkout is not ours", async () => {
    const { session, email } = await paidSession();
    const unnamed = stripeEvent("checkout.session.completed", session);
    expect(await deliver(unnamed, CONNECT_SECRET)).toEqual({
      status: 400,
      body: { message: expect.stringMatching(/connect endpoint.*connected account/i) },
    });
    expect(await orderStatus(email)).toBe("pending");

    // A session on a creator's own account, whatever its metadata says, does not pay the platform's order.
    const theirs = stripeEvent("checkout.session.completed", session, undefined, {
      account: "acct_1SomeCreator0000000000",
    });
    expect(await deliver(theirs, CONNECT_SECRET)).toEqual({
      status: 200,
      body: { received: true, outcome: "ignored" },
    });
    expect(await orderStatus(email)).toBe("pending");
  });

  it("account.updated counts only from the Connect endpoint, and only for the account that sent it", async () => {
    const accountId = await pendingAccount();
    const account = stripeMock.onboard(accountId);

    // From the platform endpoint it is the platform's own account: acknowledged, nothing changes.
    expect(await deliver(stripeEvent("account.updated", account), WEBHOOK_SECRET)).toEqual({
      status: 200,
      body: { received: true, outcome: "ignored" },
    });
    expect(await accountStatus(accountId)).toBe("pending");
    // Sent by one connected account about another: refused.
    const other = stripeEvent("account.updated", account, undefined, {
      account: "acct_1AnotherAccount00000000",
    });
    expect(await deliver(other, CONNECT_SECRET)).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/another account/i) },
    });
    expect(await accountStatus(accountId)).toBe("pending");

    const own = stripeEvent("account.updated", account, undefined, { account: accountId });
    expect(await deliver(own, CONNECT_SECRET)).toEqual({
      status: 200,
      body: { received: true, outcome: "processed" },
    });
    expect(await accountStatus(accountId)).toBe("active");
  });

  it("a signature made more than Stripe's 5-minute tolerance ago is refused; one within it is taken", async () => {
    const { session, email } = await paidSession();
    const event = stripeEvent("checkout.session.completed", session);
    const secondsAgo = (seconds: number) => Math.floor(Date.now() / 1000) - seconds;
    expect(await deliver(event, WEBHOOK_SECRET, secondsAgo(6 * 60))).toEqual({
      status: 400,
      body: { message: "Invalid webhook signature" },
    });
    expect(await orderStatus(email)).toBe("pending");
    expect(await deliver(event, WEBHOOK_SECRET, secondsAgo(4 * 60))).toEqual({
      status: 200,
      body: { received: true, outcome: "processed" },
    });
    expect(await orderStatus(email)).toBe("paid");
  });

  it("a live-mode event on a test server is acknowledged as ignored and changes nothing", async () => {
    const { session, email } = await paidSession();
    const live = JSON.stringify({
      ...JSON.parse(stripeEvent("checkout.session.completed", session)),
      livemode: true,
    });
    const before = await eventsRecorded();
    expect(await deliver(live, WEBHOOK_SECRET)).toEqual({
      status: 200,
      body: {
        received: true,
        outcome: "ignored",
        reason: expect.stringMatching(/live-mode event.*test mode/i),
      },
    });
    expect(await orderStatus(email)).toBe("pending");
    expect(await eventsRecorded()).toBe(before);
    const unsaid = JSON.parse(stripeEvent("checkout.session.completed", session));
    delete unsaid.livemode;
    expect((await deliver(JSON.stringify(unsaid), WEBHOOK_SECRET)).status).toBe(400);
    expect(await orderStatus(email)).toBe("pending");
  });
});
