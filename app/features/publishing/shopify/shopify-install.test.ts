import { afterEach, describe, expect, it, vi } from "vitest";
import { withShopifyMock, saveIssuedShopifyPair } from "#tests/setup/shopify";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { openIntegration } from "~/features/publishing/integrations/integrations.server";
import {
  claimShopifyInstall,
  INSTALL_GONE_TEXT,
  keepShopifyInstallGrant,
  startShopifyInstall,
} from "~/features/publishing/shopify/shopify-installs.server";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import {
  shopifyMock,
  signShopifyCallback,
  SHOPIFY_TEST_CLIENT_ID,
  SHOPIFY_TEST_CLIENT_SECRET,
} from "#tests/mocks/shopify";
import { apiRoute } from "#tests/setup/api-routes";
import * as claimPage from "~/routes/_studio+/integrations_.shopify-install";

/**
 * Installing the app from a store's Shopify admin: Shopify opens the App URL
 * with a signed query, the app goes straight to Shopify's authorize page (the
 * App Store's "authenticate immediately after install"), and the callback
 * connects the store to the creator signed in, or keeps the grant for an hour
 * until a creator signs in and claims it from the same browser. Shopify is
 * msw at its token endpoint; the install request and the callback are signed
 * as Shopify signs them.
 */

const SHOP = "install-store.myshopify.com";
const install = apiRoute("/api/oauth/shopify/install");
const callback = apiRoute("/api/oauth/{platform}/callback");
withShopifyMock({ app: true });
afterEach(async () => {
  vi.useRealTimers();
  await getDb().deleteFrom("shopify_installs").execute();
});

/** What Shopify sends to the App URL when the merchant installs or opens the app. */
function installQuery(
  overrides: Record<string, string> = {},
  secret = SHOPIFY_TEST_CLIENT_SECRET,
): URLSearchParams {
  return signShopifyCallback(
    {
      host: Buffer.from(`admin.shopify.com/store/${SHOP.split(".")[0]}`).toString("base64url"),
      shop: SHOP,
      timestamp: String(Math.floor(Date.now() / 1000)),
      ...overrides,
    },
    secret,
  );
}

async function openAppUrl(query: URLSearchParams | string, cookie?: string) {
  return callRoute(install.loader, makeRequest(`/api/oauth/shopify/install?${query}`, { cookie }));
}

/** Shopify's redirect back after the merchant approved: a code for the store and the state it was given. */
async function shopifyCallsBack(authorizeUrl: string, cookie: string) {
  const state = new URL(authorizeUrl).searchParams.get("state")!;
  const { code, token } = shopifyMock.issueCode(SHOP);
  const query = signShopifyCallback({
    code,
    host: Buffer.from("admin.shopify.com/store/install-store").toString("base64url"),
    shop: SHOP,
    state,
    timestamp: String(Math.floor(Date.now() / 1000)),
  });
  const response = await callRoute(
    callback.loader,
    makeRequest(`/api/oauth/shopify/callback?${query}`, { cookie: cookie || undefined }),
    { platform: "shopify" },
  );
  return { response, token };
}

async function tableCounts() {
  const db = getDb();
  const count = async (table: "shopify_installs" | "oauth_states" | "integrations") =>
    Number(
      (await db.selectFrom(table).select(db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n,
    );
  return {
    installs: await count("shopify_installs"),
    states: await count("oauth_states"),
    integrations: await count("integrations"),
  };
}

describe("the App URL (GET /api/oauth/shopify/install)", () => {
  it("sends a verified install request straight to Shopify's authorize page, its state bound to this browser", async () => {
    const response = await openAppUrl(installQuery());

    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("Location")!);
    expect(location.origin + location.pathname).toBe(`https://${SHOP}/admin/oauth/authorize`);
    expect(location.searchParams.get("client_id")).toBe(SHOPIFY_TEST_CLIENT_ID);
    expect(location.searchParams.get("scope")).toBe(
      "write_products,write_publications,read_orders",
    );
    expect(location.searchParams.get("redirect_uri")).toBe(
      "http://localhost:3000/api/oauth/shopify/callback",
    );
    const state = location.searchParams.get("state")!;
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The state is this browser's (a signed, HttpOnly cookie) and stored only as its hash.
    const setCookie = response.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/__shopify-install=.*HttpOnly/i);
    const rows = await getDb().selectFrom("shopify_installs").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ shop_domain: SHOP, credentials: null, claim_hash: null });
    expect(JSON.stringify(rows)).not.toContain(state);
  });

  it("answers a bad HMAC, a bad shop or a stale timestamp with a clear 400, and changes nothing", async () => {
    const before = await tableCounts();
    const cases: [string, URLSearchParams | string, RegExp][] = [
      [
        "signed with another secret",
        installQuery({}, "not-the-app-secret"),
        /could not be verified as coming from Shopify/,
      ],
      [
        "a parameter changed after signing",
        (() => {
          const query = installQuery();
          query.set("shop", "other-store.myshopify.com");
          return query;
        })(),
        /could not be verified as coming from Shopify/,
      ],
      [
        "no hmac at all",
        `shop=${SHOP}&timestamp=${Math.floor(Date.now() / 1000)}`,
        /could not be verified/,
      ],
      [
        "a shop that is not a myshopify.com store",
        installQuery({ shop: "evil.example.com" }),
        /names no myshopify\.com store/,
      ],
      [
        "two shops",
        `${installQuery()}&shop=other-store.myshopify.com`,
        /names no myshopify\.com store/,
      ],
      [
        "a timestamp ten minutes old",
        installQuery({ timestamp: String(Math.floor(Date.now() / 1000) - 600) }),
        /out of date/,
      ],
      [
        "a timestamp from the future",
        installQuery({ timestamp: String(Math.floor(Date.now() / 1000) + 600) }),
        /out of date/,
      ],
      ["a timestamp that is not a number", installQuery({ timestamp: "soon" }), /out of date/],
    ];
    for (const [label, query, message] of cases) {
      const response = await openAppUrl(query);
      expect(response.status, label).toBe(400);
      expect((await response.json()).message, label).toMatch(message);
      expect(response.headers.get("Location"), label).toBeNull();
      expect(response.headers.getSetCookie(), label).toEqual([]);
    }
    expect(await tableCounts()).toEqual(before);
  });

  it("sends a store connected already to /integrations instead of through OAuth again", async () => {
    const { user } = await createTestUser();
    await saveIssuedShopifyPair(user.id, SHOP);

    const response = await openAppUrl(installQuery());

    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/integrations#shopify");
    expect((await tableCounts()).installs).toBe(0);
  });
});

describe("installing from Shopify's admin", () => {
  it("with a creator signed in: goes to authorize and connects the store to them on the callback, as Connect does", async () => {
    const alice = await createTestUser();
    const started = await openAppUrl(installQuery(), alice.cookie);
    expect(started.status).toBe(302);
    // The state is Alice's, as a Connect button's is: no install cookie, nothing kept aside.
    expect(started.headers.getSetCookie()).toEqual([]);
    expect((await tableCounts()).installs).toBe(0);

    const { response, token } = await shopifyCallsBack(
      started.headers.get("Location")!,
      alice.cookie,
    );

    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/integrations");
    const connected = await openIntegration(getDb(), alice.user.id, "shopify");
    expect(connected!.row.shop_domain).toBe(SHOP);
    expect(connected!.secret).toBe(token);
  });

  it("with nobody signed in: keeps the grant, and the creator who signs in in that browser claims it with a POST", async () => {
    const started = await openAppUrl(installQuery());
    const browser = cookiesFrom(started);

    const { response, token } = await shopifyCallsBack(started.headers.get("Location")!, browser);

    // The code was exchanged at once (expiring: 1), and the grant kept, sealed, for nobody yet.
    expect(shopifyMock.exchanges).toMatchObject([{ shop: SHOP, expiring: 1 }]);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/integrations/shopify-install");
    expect((await tableCounts()).integrations).toBe(0);
    const [kept] = await getDb().selectFrom("shopify_installs").selectAll().execute();
    expect(kept.credentials).toBeTruthy();
    expect(kept.credentials).not.toContain(token);
    const browserAfter = cookiesFrom(response, browser);
    expect(browserAfter).toMatch(/__shopify-claim=/);
    expect(browserAfter).not.toMatch(/__shopify-install=/);

    // Not signed in: the claim page asks for sign-in first, and comes back.
    const signedOut = await callRoute(
      claimPage.loader,
      makeRequest("/integrations/shopify-install", { cookie: browserAfter }),
    );
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toBe(
      "/auth?redirectTo=%2Fintegrations%2Fshopify-install",
    );

    // Signed in (say, just registered): the page names the store waiting, and changes nothing.
    const alice = await createTestUser();
    const cookie = `${browserAfter}; ${alice.cookie}`;
    const page = await callRoute(
      claimPage.loader,
      makeRequest("/integrations/shopify-install", { cookie }),
    );
    expect(await page.json()).toEqual({ shop: SHOP });
    expect((await tableCounts()).integrations).toBe(0);

    const claimed = await callRoute(
      claimPage.action,
      formRequest("/integrations/shopify-install", {}, { cookie }),
    );

    expect(claimed.status).toBe(302);
    expect(claimed.headers.get("Location")).toBe("/integrations#shopify");
    expect(cookiesFrom(claimed, cookie)).not.toMatch(/__shopify-claim=/);
    const connected = await openIntegration(getDb(), alice.user.id, "shopify");
    expect(connected!.row).toMatchObject({ shop_domain: SHOP, method: "oauth", is_active: 1 });
    expect(connected!.secret).toBe(token);
    expect(connected!.credential.refreshToken).toMatch(/^shprt_/);
    expect(Date.parse(connected!.credential.expiresAt!)).toBeGreaterThan(Date.now());
    expect((await tableCounts()).installs).toBe(0);

    // Used up: a second claim (another creator with the same cookie) gets nothing.
    const bob = await createTestUser();
    const again = await callRoute(
      claimPage.action,
      formRequest(
        "/integrations/shopify-install",
        {},
        { cookie: `${browserAfter}; ${bob.cookie}` },
      ),
    );
    expect(again.headers.get("Location")).toBe("/integrations/shopify-install");
    expect(await openIntegration(getDb(), bob.user.id, "shopify")).toBeNull();
  });

  it("an expired grant cannot be claimed (an hour after the callback)", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2028-05-02T10:00:00.000Z") });
    const started = await openAppUrl(installQuery());
    const { response } = await shopifyCallsBack(
      started.headers.get("Location")!,
      cookiesFrom(started),
    );
    const browser = cookiesFrom(response, cookiesFrom(started));
    const alice = await createTestUser();
    const cookie = `${browser}; ${alice.cookie}`;

    vi.setSystemTime(Date.parse("2028-05-02T11:00:01.000Z"));
    const page = await callRoute(
      claimPage.loader,
      makeRequest("/integrations/shopify-install", { cookie }),
    );
    expect(await page.json()).toEqual({ shop: null });
    const claimed = await callRoute(
      claimPage.action,
      formRequest("/integrations/shopify-install", {}, { cookie }),
    );

    expect(claimed.status).toBe(302);
    expect(claimed.headers.get("Location")).toBe("/integrations/shopify-install");
    expect(claimed.headers.getSetCookie().join("\n")).toMatch(/flash=/);
    expect(await openIntegration(getDb(), alice.user.id, "shopify")).toBeNull();
  });

  it("the service refuses a claim past the hour with the same sentence, and keeps nothing for a callback from another browser", async () => {
    const db = getDb();
    const now = new Date("2028-06-01T08:00:00.000Z");
    const config = getConfig();
    const started = await startShopifyInstall(db, {
      config,
      userId: null,
      params: installQuery({ timestamp: String(now.getTime() / 1000) }),
      origin: "http://localhost:3000",
      now,
    });
    if (started.kind !== "authorize") throw new Error("expected the authorize page");
    const state = new URL(started.url).searchParams.get("state")!;
    const { code } = shopifyMock.issueCode(SHOP);
    const params = signShopifyCallback({ code, shop: SHOP, state, timestamp: "1843000000" });

    // Another browser (a different state in its cookie) cannot finish this install.
    await expect(
      keepShopifyInstallGrant(db, { config, params, browserState: "someone-elses-state", now }),
    ).rejects.toThrow(/could not be verified/);

    const kept = await keepShopifyInstallGrant(db, {
      config,
      params,
      browserState: started.browserState!,
      now,
    });
    expect(kept.shop).toBe(SHOP);
    // The state works once.
    await expect(
      keepShopifyInstallGrant(db, { config, params, browserState: started.browserState!, now }),
    ).rejects.toThrow(/expired or was already used/);

    const { user } = await createTestUser();
    await expect(
      claimShopifyInstall(db, {
        userId: user.id,
        claimToken: kept.claimToken,
        now: new Date(now.getTime() + 60 * 60 * 1000),
      }),
    ).rejects.toThrow(INSTALL_GONE_TEXT);
    expect(await openIntegration(db, user.id, "shopify")).toBeNull();
  });

  it("without this browser's install cookie, the callback of an install is an ordinary failed connection and keeps nothing", async () => {
    const started = await openAppUrl(installQuery());
    const { response } = await shopifyCallsBack(started.headers.get("Location")!, "");

    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/integrations");
    expect(shopifyMock.exchanges).toEqual([]);
    const [row] = await getDb().selectFrom("shopify_installs").selectAll().execute();
    expect(row.credentials).toBeNull();
  });
});
