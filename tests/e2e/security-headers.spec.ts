import type { APIRequestContext, APIResponse } from "@playwright/test";
import { request as playwrightRequest } from "@playwright/test";
import { ACCOUNTS, expect, test } from "./fixtures";
import type { Role } from "./fixtures";

/**
 * The security headers of every kind of answer the server gives: pages for a
 * visitor, a creator and the admin, error pages, Remix data requests, API JSON
 * (success and error), images, downloads, client assets and the health check.
 * Headers do not depend on the browser, so this runs once (JavaScript project).
 */

const BASE_HEADERS: Record<string, RegExp> = {
  "x-content-type-options": /^nosniff$/,
  "x-frame-options": /^DENY$/,
  "referrer-policy": /^same-origin$/,
  "cross-origin-opener-policy": /^same-origin-allow-popups$/,
  "permissions-policy": /camera=\(\).*microphone=\(\).*geolocation=\(\)/,
  // The browser tests run the server with NODE_ENV=production, as the container does.
  "strict-transport-security": /^max-age=31536000; includeSubDomains$/,
};

const CSP_DIRECTIVES = [
  "default-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "object-src 'none'",
  "form-action 'self'",
];

type Kind = "page" | "private-page" | "json" | "data" | "file" | "asset";

function expectBaseHeaders(response: APIResponse, what: string) {
  const headers = response.headers();
  for (const [name, pattern] of Object.entries(BASE_HEADERS)) {
    expect(headers[name], `${name} on ${what}`).toMatch(pattern);
  }
  const csp = headers["content-security-policy"] ?? "";
  for (const directive of CSP_DIRECTIVES) expect(csp, `CSP on ${what}`).toContain(directive);
  const scriptSrc = csp.split(";").find((part) => part.trim().startsWith("script-src")) ?? "";
  expect(scriptSrc, `script-src on ${what}`).toMatch(
    /^\s*script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}'$/,
  );
  expect(headers["x-powered-by"], `x-powered-by on ${what}`).toBeUndefined();
}

/** Every inline or external script of an HTML page carries this response's nonce, and only it. */
async function expectNoncedScripts(response: APIResponse, what: string) {
  const nonce = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
  expect(nonce, `nonce on ${what}`).toBeTruthy();
  const html = await response.text();
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1]);
  expect(scripts.length, `scripts on ${what}`).toBeGreaterThan(0);
  for (const attributes of scripts)
    expect(attributes, `a script tag on ${what}`).toContain(`nonce="${nonce}"`);
  return nonce!;
}

async function expectKind(response: APIResponse, kind: Kind, what: string) {
  expectBaseHeaders(response, what);
  const headers = response.headers();
  const cache = headers["cache-control"] ?? "";
  switch (kind) {
    case "page":
      expect(headers["content-type"], what).toMatch(/^text\/html/);
      expect(cache, `cache-control on ${what}`).toMatch(/private/);
      await expectNoncedScripts(response, what);
      break;
    case "private-page":
      expect(headers["content-type"], what).toMatch(/^text\/html/);
      expect(cache, `cache-control on ${what}`).toMatch(/private.*no-store|no-store.*private/);
      await expectNoncedScripts(response, what);
      break;
    case "data":
      expect(headers["content-type"], what).toMatch(/^application\/json/);
      expect(cache, `cache-control on ${what}`).toMatch(/private|no-store/);
      break;
    case "json":
      expect(headers["content-type"], what).toMatch(/^application\/json/);
      expect(cache, `cache-control on ${what}`).toMatch(/no-store/);
      break;
    case "file":
      expect(headers["content-type"], what).toMatch(/^image\//);
      break;
    case "asset":
      expect(headers["content-type"], what).toMatch(/javascript|css/);
      expect(cache, `cache-control on ${what}`).toMatch(/immutable/);
      break;
  }
}

async function signedInContext(baseURL: string, role: Role): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { Origin: baseURL },
  });
  const { email, password } = ACCOUNTS[role];
  const response = await context.post("/auth", {
    form: { intent: "login", email, password, redirectTo: "/dashboard" },
    maxRedirects: 0,
  });
  expect(response.status(), `sign in as ${role}`).toBe(302);
  return context;
}

test.describe("security headers", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "headers do not depend on the browser");

  test("every page type, API answer, file and asset carries them", async ({ request, baseURL }) => {
    const base = baseURL!;

    // Public pages, the 404 page and a page's error boundary, for a visitor.
    const visitorPages: Array<[string, number]> = [
      ["/", 200],
      ["/landing", 200],
      ["/auth", 200],
      ["/marketplace", 200],
      ["/license", 200],
      ["/training", 200],
      ["/token-test", 200],
      ["/integrations", 200],
      ["/cart", 200],
      ["/no-such-page", 404],
      ["/licenses/no-such-order", 404],
    ];
    for (const [path, status] of visitorPages) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(status);
      await expectKind(response, "page", `${path} (visitor)`);
    }

    // Two requests for the same page never share a nonce.
    const first = await expectNoncedScripts(await request.get("/"), "/ (first)");
    const second = await expectNoncedScripts(await request.get("/"), "/ (second)");
    expect(first).not.toBe(second);

    // A redirect to sign in still carries them.
    const guarded = await request.get("/listings", { maxRedirects: 0 });
    expect([302, 200]).toContain(guarded.status());
    expectBaseHeaders(guarded, "/listings (visitor)");

    // API JSON: a list, an error, an unknown route, and a wrong method.
    const market = await request.get("/api/marketplace?limit=2");
    expect(market.status()).toBe(200);
    await expectKind(market, "json", "GET /api/marketplace");
    const { items } = (await market.json()) as { items: Array<{ id: string; previewUrl: string }> };
    expect(items.length).toBeGreaterThan(0);
    for (const [path, status] of [
      ["/api/token-user", 401],
      ["/api/no-such-route", 404],
      ["/api/payment-status/no-such-session", 404],
    ] as const) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(status);
      await expectKind(response, "json", path);
    }
    const badJson = await request.post("/api/create-checkout-session", {
      headers: { "Content-Type": "application/json", Origin: base },
      data: "{not json",
    });
    expect(badJson.status()).toBe(400);
    await expectKind(badJson, "json", "POST /api/create-checkout-session (malformed)");

    // A Remix data request (client-side navigation).
    const data = await request.get("/marketplace?_data=routes%2F_market%2B%2Fmarketplace");
    expect(data.status()).toBe(200);
    await expectKind(data, "data", "/marketplace?_data");

    // Files: a public watermarked preview, and an unknown download token.
    const preview = await request.get(items[0].previewUrl);
    expect(preview.status()).toBe(200);
    await expectKind(preview, "file", "a marketplace preview");
    const download = await request.get("/downloads/not-a-real-token");
    expect(download.status()).toBe(403);
    expectBaseHeaders(download, "/downloads/{unknown token}");

    // A test checkout, its pages and the license of the paid order.
    const checkout = await request.post("/api/create-checkout-session", {
      headers: { Origin: base },
      data: {
        cartItems: [{ imageId: items[0].id, licenseType: "standard" }],
        customerInfo: { name: "Header Check", email: "headers@e2e.test" },
      },
    });
    expect(checkout.status()).toBe(200);
    const { sessionId } = (await checkout.json()) as { sessionId: string };
    const checkoutPage = await request.get(`/test-checkout/${encodeURIComponent(sessionId)}`);
    expect(checkoutPage.status()).toBe(200);
    await expectKind(checkoutPage, "private-page", "/test-checkout/{id}");
    const paid = await request.post(`/test-checkout/${encodeURIComponent(sessionId)}`, {
      headers: { Origin: base },
      form: { intent: "pay" },
      maxRedirects: 0,
    });
    expect(paid.status()).toBe(302);
    expectBaseHeaders(paid, "the test checkout's pay redirect");
    const status = (await (
      await request.get(`/api/payment-status/${encodeURIComponent(sessionId)}`)
    ).json()) as {
      success: boolean;
      downloads: Array<{ downloadUrl: string }>;
    };
    expect(status.success).toBe(true);
    const purchased = await request.get(status.downloads[0].downloadUrl);
    expect(purchased.status()).toBe(200);
    expectBaseHeaders(purchased, "a purchased download");
    expect(purchased.headers()["cache-control"]).toMatch(/private, no-store/);
    expect(purchased.headers()["content-disposition"]).toMatch(/^attachment/);

    // Client assets and the health check.
    const landingHtml = await (await request.get("/landing")).text();
    const script =
      /<script[^>]+src="(\/build\/[^"]+\.js)"/.exec(landingHtml)?.[1] ??
      /"(\/build\/entry\.client-[^"]+\.js)"/.exec(landingHtml)?.[1];
    expect(script, "a client script on /landing").toBeTruthy();
    const asset = await request.get(script!);
    await expectKind(asset, "asset", script!);
    const health = await request.get("/healthz");
    expect(health.status()).toBe(200);
    expectBaseHeaders(health, "/healthz");

    // Signed in: the creator's and the admin's pages are never stored.
    const creator = await signedInContext(base, "creator");
    try {
      for (const path of ["/dashboard", "/listings", "/integrations", "/marketplace", "/cart"]) {
        const response = await creator.get(path);
        expect(response.status(), path).toBe(200);
        await expectKind(response, "private-page", `${path} (creator)`);
      }
      const denied = await creator.get("/admin");
      expect(denied.status()).toBe(403);
      await expectKind(denied, "private-page", "/admin (creator: access denied)");
      const dashboardData = await creator.get("/dashboard?_data=routes%2F_studio%2B%2Fdashboard");
      expect(dashboardData.status()).toBe(200);
      expect(dashboardData.headers()["cache-control"]).toMatch(/private, no-store/);
      expectBaseHeaders(dashboardData, "/dashboard?_data (creator)");
    } finally {
      await creator.dispose();
    }
    const admin = await signedInContext(base, "admin");
    try {
      const response = await admin.get("/admin");
      expect(response.status()).toBe(200);
      await expectKind(response, "private-page", "/admin (admin)");
      const stats = await admin.get("/api/admin/stats");
      expect(stats.status()).toBe(200);
      await expectKind(stats, "json", "GET /api/admin/stats");
    } finally {
      await admin.dispose();
    }
  });

  test("the license of a paid order is private to every cache and open to robots", async ({
    request,
    baseURL,
  }) => {
    const base = baseURL!;
    const { items } = (await (await request.get("/api/marketplace?limit=1")).json()) as {
      items: Array<{ id: string }>;
    };
    const checkout = await request.post("/api/create-checkout-session", {
      headers: { Origin: base },
      data: {
        cartItems: [{ imageId: items[0].id, licenseType: "standard" }],
        customerInfo: { name: "License Headers", email: "license-headers@e2e.test" },
      },
    });
    const { sessionId } = (await checkout.json()) as { sessionId: string };
    await request.post(`/test-checkout/${encodeURIComponent(sessionId)}`, {
      headers: { Origin: base },
      form: { intent: "pay" },
      maxRedirects: 0,
    });
    const monitor = await request.get(
      `/payment-monitor?session_id=${encodeURIComponent(sessionId)}`,
      { maxRedirects: 0 },
    );
    expectBaseHeaders(monitor, "/payment-monitor");
    const status = (await (
      await request.get(`/api/payment-status/${encodeURIComponent(sessionId)}`)
    ).json()) as {
      licenseUrl: string | null;
    };
    expect(status.licenseUrl, "a paid order has a license").toBeTruthy();
    const license = await request.get(new URL(status.licenseUrl!).pathname);
    expect(license.status()).toBe(200);
    await expectKind(license, "private-page", "/licenses/{licenseId}");
    // A certificate its buyer shows to others: unlisted (its address is the key), not banned from robots.
    expect(license.headers()["x-robots-tag"]).toBeUndefined();
  });
});
