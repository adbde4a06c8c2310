import { describe, expect, it } from "vitest";
import { loader as monitorPage } from "~/routes/_market+/payment-monitor";
import { action as cartAction } from "~/routes/_market+/cart";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { sha256 } from "~/infra/ids.server";
import { countedKeyHash } from "~/infra/counted-keys.server";
import type { HttpError } from "~/infra/errors.server";
import {
  CHECKOUT_RATE_LIMIT,
  countsInDatabase,
  limitOf,
  PAYMENT_STATUS_RATE_LIMIT,
  SEARCH_RATE_LIMIT,
  SlidingWindowLimiter,
  throttle,
} from "~/infra/rate-limit.server";
import { apiRoute } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";

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
        { ties: testTies, clientIp: ip },
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
        { ties: testTies, clientIp: ip },
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
      { ties: testTies, clientIp: "192.0.2.40" },
    );
    const { sessionId } = await created.json();
    const poll = (ip: string) =>
      callRoute(
        paymentStatusApi,
        makeRequest(`/api/payment-status/${sessionId}`),
        { sessionId },
        { ties: testTies, clientIp: ip },
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
      { ties: testTies, clientIp: "192.0.2.41" },
    );
    expect(await monitor.json()).toMatchObject({ result: null, failed: true });
    expect((await poll("192.0.2.42")).status).toBe(200);
  });
});

describe("where limits are counted", () => {
  const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
  // Stored, a bucket names the rule and the keyed hash of its key (an address here).
  const hits = (bucket: string) => {
    const [rule, key] = bucket.split(":");
    return getDb()
      .selectFrom("rate_limit_hits")
      .select("id")
      .where("bucket", "=", `${rule}:${countedKeyHash(key)}`)
      .execute();
  };

  it("stores an address as an HMAC under a key of the app secret, never as its plain SHA-256", async () => {
    const web = {
      db: getDb(),
      now: new Date(),
      config: { ...getConfig(), ROLE: "web" as const },
      clientIp: "192.0.2.92",
    };
    await throttle(web, SEARCH_RATE_LIMIT);
    const stored = await getDb()
      .selectFrom("rate_limit_hits")
      .select("bucket")
      .where("bucket", "like", "search:%")
      .execute();
    const buckets = stored.map((row) => row.bucket);
    // Hashing every IPv4 address finds a plain SHA-256; the keyed hash needs the secret.
    expect(buckets).not.toContain(`search:${sha256("192.0.2.92")}`);
    expect(buckets).toContain(`search:${countedKeyHash("192.0.2.92")}`);
    expect(countedKeyHash("192.0.2.92", "another secret")).not.toBe(countedKeyHash("192.0.2.92"));
  });

  it("in this process alone on SQLite with one process (ROLE=all); in the database on PostgreSQL or with web processes apart", async () => {
    const db = getDb();
    const now = new Date();
    expect(countsInDatabase({ db, now, config: { ROLE: "all" } })).toBe(onPostgres);
    expect(countsInDatabase({ db, now, config: { ROLE: "web" } })).toBe(true);
    expect(countsInDatabase({ db, now, config: { ROLE: "worker" } })).toBe(true);

    // A web process counts in the database, where the other web processes see the same hits.
    const web = {
      db,
      now,
      config: { ...getConfig(), ROLE: "web" as const },
      clientIp: "192.0.2.90",
    };
    for (let i = 0; i < limitOf(SEARCH_RATE_LIMIT, web.config); i++)
      await throttle(web, SEARCH_RATE_LIMIT);
    expect(await hits("search:192.0.2.90")).toHaveLength(limitOf(SEARCH_RATE_LIMIT, web.config));
    const refused = await throttle(web, SEARCH_RATE_LIMIT).then(
      () => null,
      (error: unknown) => error as HttpError,
    );
    expect(refused?.status).toBe(429);
    expect(refused?.message).toMatch(
      /^Too many searches from your network\. Try again in \d+ (second|minute)s?\.$/,
    );

    // One process on SQLite counts in memory and writes nothing.
    const alone = {
      ...web,
      config: { ...getConfig(), ROLE: "all" as const },
      clientIp: "192.0.2.91",
    };
    await throttle(alone, SEARCH_RATE_LIMIT);
    expect(await hits("search:192.0.2.91")).toHaveLength(onPostgres ? 1 : 0);
  });
});
