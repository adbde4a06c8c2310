import { describe, expect, it, vi } from "vitest";
import * as auth from "~/routes/_auth+/auth";
import * as root from "~/root";
import { action as cartAction } from "~/routes/_market+/cart";
import { action as testCheckoutAction } from "~/routes/_market+/test-checkout.$sessionId";
import { loader as tokenTestPage } from "~/routes/_auth+/token-test";
import { getConfig } from "~/infra/config.server";
import { applyDocumentCacheControl, SIGNED_IN_CACHE_CONTROL } from "~/web/document-cache.server";
import { DEMO_CREATOR } from "#db/demo-account";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { checkoutSessionHash } from "~/features/market/orders/orders.server";
import { apiRoute } from "#tests/setup/api-routes";
import { rowWhere, selectWhere } from "#tests/setup/rows-where";

const { action: createSessionApi } = apiRoute("/api/create-checkout-session");
const { loader: adminStatsApi } = apiRoute("/api/admin/stats");
const { loader: earningsApi } = apiRoute("/api/token-earnings");
const { loader: statsApi } = apiRoute("/api/token-stats");

// A production server running the built-in test checkout on purpose (a demo), as the browser tests do.
vi.hoisted(() => {
  process.env.NODE_ENV = "production";
  process.env.PUBLIC_URL = "http://localhost:3000";
  process.env.ALLOW_TEST_CHECKOUT = "true";
});

describe("a production server", () => {
  it("runs with the test checkout only because ALLOW_TEST_CHECKOUT=true", () => {
    expect(getConfig()).toMatchObject({ isProduction: true, ALLOW_TEST_CHECKOUT: true });
    expect(getConfig().STRIPE_SECRET_KEY).toBeUndefined();
  });

  it("names its session, flash and cart cookies __Host- (Secure, Path=/, no Domain), and they work", async () => {
    await createTestUser({ email: "web@example.com" });
    const response = await callRoute(
      auth.action,
      formRequest("/auth", {
        intent: "login",
        redirectTo: "/dashboard",
        email: "web@example.com",
        password: TEST_PASSWORD,
      }),
    );
    expect(response.status).toBe(302);
    const lines = response.headers.getSetCookie();
    const session = lines.find((line) => line.startsWith("__Host-session="));
    const flash = lines.find((line) => line.startsWith("__Host-flash="));
    for (const line of [session, flash]) {
      expect(line).toBeDefined();
      expect(line).toMatch(/;\s*Secure/i);
      expect(line).toMatch(/;\s*Path=\/(;|$)/i);
      expect(line).not.toMatch(/Domain=/i);
    }
    expect(lines.some((line) => line.startsWith("__session="))).toBe(false);

    const cookie = cookiesFrom(response);
    const home = await callRoute(root.loader, makeRequest("/dashboard", { cookie }));
    expect((await home.json()).user.email).toBe("web@example.com");
    const headers = new Headers();
    applyDocumentCacheControl(makeRequest("/dashboard", { cookie }), headers);
    expect(headers.get("Cache-Control")).toBe(SIGNED_IN_CACHE_CONTROL);

    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const added = await callRoute(
      cartAction,
      formRequest("/cart", { intent: "add", listingId: listing.id }),
    );
    const cart = added.headers.getSetCookie().find((line) => line.startsWith("__Host-cart="));
    expect(cart).toMatch(/;\s*Secure/i);
    expect(cart).not.toMatch(/Domain=/i);
  });

  it("sells in the test checkout without counting it as revenue or earnings", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { price: 20 });
    const created = await callRoute(
      createSessionApi,
      makeRequest("/api/create-checkout-session", {
        json: {
          cartItems: [{ imageId: listing.id }],
          customerInfo: { name: "Bea", email: "bea@example.com" },
        },
      }),
    );
    const { sessionId, url } = await created.json();
    expect(url).toBe(`http://localhost:3000/test-checkout/${sessionId}`);
    const paid = await callRoute(
      testCheckoutAction,
      formRequest(`/test-checkout/${sessionId}`, { intent: "pay" }),
      { sessionId },
    );
    expect(paid.status).toBe(302);
    const order = await rowWhere(
      "orders",
      "*",
      "checkout_session_hash",
      checkoutSessionHash(sessionId),
    );
    expect(order.status).toBe("paid");
    expect(await selectWhere("earnings", "test_mode", "order_id", order.id)).toEqual([
      { test_mode: 1 },
    ]);

    const stats = await (
      await callRoute(adminStatsApi, makeRequest("/api/admin/stats", { token: admin.token }))
    ).json();
    expect(stats.platformRevenue).toBe(0);
    const mine = await (
      await callRoute(statsApi, makeRequest("/api/token-stats", { token: creator.token }))
    ).json();
    expect(mine).toMatchObject({ totalSales: 0, totalEarnings: 0 });
    const earnings = await (
      await callRoute(earningsApi, makeRequest("/api/token-earnings", { token: creator.token }))
    ).json();
    expect(earnings.totalEarnings).toBe(0);
    expect(earnings.records).toMatchObject([
      { saleReference: expect.any(String), amount: "17", testMode: true },
    ]);
    expect(JSON.stringify(earnings)).not.toContain(order.id);

    // Bearer use was recorded on the token.
    const used = await selectWhere("api_tokens", "last_used_at", "user_id", creator.user.id);
    expect(used.every((row) => row.last_used_at !== null)).toBe(true);
  });

  it("prefills nothing on /token-test, even with the demo account seeded", async () => {
    await createTestUser({ email: DEMO_CREATOR.email });
    const page = await callRoute(tokenTestPage, makeRequest("/token-test"));
    const text = await page.text();
    expect(JSON.parse(text)).toEqual({ email: "", key: "" });
    expect(text).not.toContain(DEMO_CREATOR.email);
    expect(text).not.toContain(DEMO_CREATOR.password);
  });
});
