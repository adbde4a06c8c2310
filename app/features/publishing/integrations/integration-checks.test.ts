import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { INTEGRATION_CHECK_RATE_LIMIT } from "~/features/publishing/integrations/integration-checks.server";
import * as integrationsRoute from "~/routes/_studio+/integrations";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { startSftpServer, type SftpTestServer } from "#tests/setup/sftp-server";
import { shopifyHandlers, shopifyMock } from "#tests/mocks/shopify";
import { apiRoute } from "#tests/setup/api-routes";
import { rowsWhere } from "#tests/setup/rows-where";

const tokenIntegrations = apiRoute("/api/token-marketplace-integrations");

/**
 * Saving a connection checks the login with the vendor (a real SFTP server
 * here, Shopify through msw at its HTTP edge) and says whether it worked: so
 * each creator gets only a few such checks in a window, on the screen and
 * the API alike, and past them the vendor is not asked at all.
 */

const USERNAME = "208499999";
const PASSWORD = "Right-sftp-PASSWORD-31c7";
const SHOP = "oracle-store.myshopify.com";
const LIMIT = INTEGRATION_CHECK_RATE_LIMIT.limit;
let sftp: SftpTestServer;
const msw = setupServer(...shopifyHandlers);

beforeAll(async () => {
  sftp = await startSftpServer({ users: { [USERNAME]: PASSWORD } });
  getConfig().ADOBE_STOCK_SFTP_HOST = sftp.host;
  getConfig().ADOBE_STOCK_SFTP_PORT = sftp.port;
  msw.listen({ onUnhandledRequest: "error" });
});
afterEach(() => shopifyMock.reset());
afterAll(async () => {
  msw.close();
  await sftp.close();
});

const saveOnScreen = (cookie: string, apiKey: string) =>
  callRoute(
    integrationsRoute.action,
    formRequest(
      "/integrations",
      { intent: "manual", platform: "adobestock", username: USERNAME, apiKey },
      { cookie },
    ),
  );

const savedRows = (userId: string) => rowsWhere("integrations", "user_id", userId);

describe("integration checks are throttled per creator", () => {
  it("Adobe Stock: after a few refused passwords the screen says to wait (429) and the SFTP server is not asked, not even with the right password", async () => {
    const { user, cookie, token } = await createTestUser();
    for (let attempt = 1; attempt <= LIMIT; attempt++) {
      const refused = await saveOnScreen(cookie, `guess-${attempt}`);
      expect(refused.status, `guess ${attempt}`).toBe(400);
      expect(JSON.stringify(await refused.json())).toContain("Adobe Stock refused");
    }
    const loginsBefore = sftp.logins().length;

    const screen = await saveOnScreen(cookie, PASSWORD);
    expect(screen.status).toBe(429);
    expect(Number(screen.headers.get("Retry-After"))).toBeGreaterThan(0);
    const reply = (await screen.json()) as { error?: Record<string, string[]> };
    expect(reply.error?.[""]).toEqual([
      "Too many connection checks for your account. Try again in 15 minutes.",
    ]);
    expect(JSON.stringify(reply)).not.toContain(PASSWORD);

    const api = await callRoute(
      tokenIntegrations.action,
      makeRequest("/api/token-marketplace-integrations", {
        token,
        json: { platform: "adobestock", username: USERNAME, apiKey: PASSWORD },
      }),
    );
    expect(api.status).toBe(429);
    expect(Number(api.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await api.json()).message).toMatch(
      /^Too many connection checks for your account\. Try again in \d+ minutes?\.$/,
    );

    expect(sftp.logins()).toHaveLength(loginsBefore);
    expect(await savedRows(user.id)).toEqual([]);

    // Saves that check nothing with a vendor are not held up.
    const opensea = await callRoute(
      tokenIntegrations.action,
      makeRequest("/api/token-marketplace-integrations", {
        token,
        json: {
          platform: "opensea",
          apiKey: "opensea-key-1234",
          walletAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
        },
      }),
    );
    expect(opensea.status).toBe(201);

    // Another creator is not affected.
    const other = await createTestUser();
    expect((await saveOnScreen(other.cookie, PASSWORD)).status).toBe(302);
    expect(sftp.logins()).toHaveLength(loginsBefore + 1);
  });

  it("Shopify: a custom app's token is checked a few times, then 429 before Shopify is asked", async () => {
    const { token } = await createTestUser();
    const tryToken = (apiKey: string) =>
      callRoute(
        tokenIntegrations.action,
        makeRequest("/api/token-marketplace-integrations", {
          token,
          json: { platform: "shopify", shopDomain: SHOP, apiKey },
        }),
      );
    for (let attempt = 1; attempt <= LIMIT; attempt++) {
      expect((await tryToken(`shpat_guess${attempt}`)).status, `guess ${attempt}`).not.toBe(201);
    }
    expect(shopifyMock.graphql).toHaveLength(LIMIT);
    shopifyMock.acceptToken(SHOP, "shpat_right");
    const limited = await tryToken("shpat_right");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(shopifyMock.graphql).toHaveLength(LIMIT);
  });
});
