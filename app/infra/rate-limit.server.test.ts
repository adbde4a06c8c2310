import { describe, expect, it } from "vitest";
import { loader as monitorPage } from "~/routes/_market+/payment-monitor";
import { action as cartAction } from "~/routes/_market+/cart";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { getConfig } from "~/infra/config.server";
import {
  CHECKOUT_RATE_LIMIT,
  limitOf,
  PAYMENT_STATUS_RATE_LIMIT,
  SlidingWindowLimiter,
} from "~/infra/rate-limit.server";
import { apiRoute } from "#tests/setup/api-routes";

const { action: createSessionApi } = apiRoute("/api/create-checkout-session");
const { loader: paymentStatusApi } = apiRoute("/api/payment-status/{sessionId}");

describe("SlidingWindowLimiter", () => {
  it("allows `limit` hits per window and key, then answers the wait until the oldest leaves the window", () => {
    const limiter = new SlidingWindowLimiter();
    expect([0, 1000, 2000].map((t) => limiter.take("a", 3, 10_000, t))).toEqual([0, 0, 0]);
    expect(limiter.take("a", 3, 10_000, 4000)).toBe(6000);
    // A refused hit is not counted, another key is separate.
    expect(limiter.take("b", 3, 10_000, 4000)).toBe(0);
    expect(limiter.take("a", 3, 10_000, 10_001)).toBe(0);
    expect(limiter.take("a", 3, 10_000, 10_002)).toBe(998);
  });
});

const buyer = { name: "Rita Rate", email: "rita@example.com" };

describe("per-address throttles", () => {
  it("checkout: 20 per address in 10 minutes over the API and the cart form, then 429 with Retry-After", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const start = (ip: string) =>
      callRoute(
        createSessionApi,
        makeRequest("/api/create-checkout-session", {
          json: { cartItems: [{ imageId: listing.id }], customerInfo: buyer },
        }),
        {},
        { clientIp: ip },
      );
    for (let i = 0; i < limitOf(CHECKOUT_RATE_LIMIT, getConfig()); i++)
      expect((await start("192.0.2.30")).status).toBe(200);
    const limited = await start("192.0.2.30");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(500);
    expect((await limited.json()).message).toMatch(
      /^Too many checkouts started from your network\. Try again in \d+ minutes?\.$/,
    );

    // The cart's checkout form shares the limit.
    const added = await callRoute(
      cartAction,
      formRequest("/cart", { intent: "add", listingId: listing.id }),
    );
    const cookie = cookiesFrom(added);
    const form = (ip: string) =>
      callRoute(
        cartAction,
        formRequest("/cart", { intent: "checkout", ...buyer }, { cookie }),
        {},
        { clientIp: ip },
      );
    const formLimited = await form("192.0.2.30");
    expect(formLimited.status).toBe(429);
    expect(Number(formLimited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await formLimited.json()).error[""]).toEqual([
      expect.stringMatching(/^Too many checkouts/),
    ]);
    // Another address still checks out.
    expect((await form("192.0.2.31")).status).toBe(302);
  });

  it("payment status: 120 per address a minute, then 429 with Retry-After (the payment monitor too)", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const created = await callRoute(
      createSessionApi,
      makeRequest("/api/create-checkout-session", {
        json: { cartItems: [{ imageId: listing.id }], customerInfo: buyer },
      }),
      {},
      { clientIp: "192.0.2.40" },
    );
    const { sessionId } = await created.json();
    const poll = (ip: string) =>
      callRoute(
        paymentStatusApi,
        makeRequest(`/api/payment-status/${sessionId}`),
        { sessionId },
        { clientIp: ip },
      );
    for (let i = 0; i < limitOf(PAYMENT_STATUS_RATE_LIMIT, getConfig()); i++)
      expect((await poll("192.0.2.41")).status).toBe(200);
    const limited = await poll("192.0.2.41");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await limited.json()).message).toMatch(
      /^Too many payment status checks\. Try again in \d+ (second|minute)s?\.$/,
    );
    // The payment monitor's loader looks the status up through the same limit and shows its error state.
    const { cookie } = await createTestUser();
    const monitor = await callRoute(
      monitorPage,
      makeRequest(`/payment-monitor?session_id=${sessionId}`, { cookie }),
      {},
      { clientIp: "192.0.2.41" },
    );
    expect(await monitor.json()).toMatchObject({ result: null, failed: true });
    expect((await poll("192.0.2.42")).status).toBe(200);
  });
});
