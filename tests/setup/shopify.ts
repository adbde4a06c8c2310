import crypto from "node:crypto";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { saveOAuthIntegration } from "~/features/publishing/integrations/integrations.server";
import type { JobWorker } from "~/infra/jobs/job-worker.server";
import {
  shopifyHandlers,
  shopifyMock,
  SHOPIFY_TEST_CLIENT_ID,
  SHOPIFY_TEST_CLIENT_SECRET,
} from "#tests/mocks/shopify";
import { startPublishWorker } from "#tests/setup/publish-worker";
import { makeRequest } from "#tests/setup/requests";

/**
 * Removes every Shopify connection of the test database. A store takes one
 * OAuth connection at a time, so files whose tests each connect a new creator
 * to the same test store call this between tests.
 */
export async function forgetShopifyConnections(): Promise<void> {
  await getDb().deleteFrom("integrations").where("platform", "=", "shopify").execute();
}

/**
 * A test file's Shopify: the mock store (msw at Shopify's HTTP edge, an unknown request an
 * error) for the whole file, and between tests the mock, its handlers and the test store's
 * connections reset. `app`: the server's Shopify app is the mock's (its client id and secret
 * in the config). `worker`: a publish worker runs for the file (with these options).
 */
export function withShopifyMock(
  options: { app?: boolean; worker?: true | Parameters<typeof startPublishWorker>[0] } = {},
) {
  const server = setupServer(...shopifyHandlers);
  let worker: JobWorker | undefined;
  beforeAll(() => {
    if (options.app) {
      const config = getConfig();
      config.SHOPIFY_CLIENT_ID = SHOPIFY_TEST_CLIENT_ID;
      config.SHOPIFY_CLIENT_SECRET = SHOPIFY_TEST_CLIENT_SECRET;
    }
    server.listen({ onUnhandledRequest: "error" });
    if (options.worker)
      worker = startPublishWorker(options.worker === true ? undefined : options.worker);
  });
  afterEach(async () => {
    server.resetHandlers();
    shopifyMock.reset();
    await forgetShopifyConnections();
  });
  afterAll(async () => {
    await worker?.stop();
    server.close();
  });
  return server;
}

/**
 * A webhook delivery to POST /api/webhooks/shopify as Shopify sends one (JSON, no Origin, no
 * cookies): `topic` from `shop`, with a fresh delivery id, the time and the HMAC of `body` under
 * `secret`. `headers` add to these or replace them; a header given as null is left out.
 */
export function shopifyWebhookRequest(
  body: string,
  options: { topic: string; shop: string; secret: string; headers?: Record<string, string | null> },
): Request {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries({
    "Content-Type": "application/json",
    "X-Shopify-Topic": options.topic,
    "X-Shopify-Shop-Domain": options.shop,
    "X-Shopify-Webhook-Id": crypto.randomUUID(),
    "X-Shopify-Triggered-At": new Date().toISOString(),
    "X-Shopify-Hmac-Sha256": crypto
      .createHmac("sha256", options.secret)
      .update(body)
      .digest("base64"),
    ...options.headers,
  }))
    if (value !== null) headers[name] = value;
  return makeRequest("/api/webhooks/shopify", { method: "POST", body, headers, origin: "none" });
}

/**
 * The creator's connection to `shop` with a pair the mock store issues now (`issueExpiring`),
 * saved as the OAuth callback saves one at `now` (the machine's clock unless given): the access
 * token lasts until `expiresAt` (the pair's own hour unless given), the refresh token its 90 days.
 */
export async function saveIssuedShopifyPair(
  userId: string,
  shop: string,
  options: { now?: number; expiresAt?: Date; scopes?: string[] } = {},
) {
  const now = options.now ?? Date.now();
  const issued = shopifyMock.issueExpiring(shop);
  await saveOAuthIntegration(getDb(), {
    userId,
    platform: "shopify",
    accessToken: issued.access_token,
    refreshToken: issued.refresh_token,
    expiresAt: options.expiresAt ?? new Date(now + issued.expires_in * 1000),
    refreshTokenExpiresAt: new Date(now + issued.refresh_token_expires_in * 1000),
    scopes: options.scopes ?? ["write_products", "write_publications"],
    shopDomain: shop,
    now: new Date(now),
  });
  return issued;
}
