import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { readSessionSecret } from "~/web/auth.server";
import { saveOAuthIntegration } from "~/features/publishing/integrations/integrations.server";
import { findOrderBySessionId } from "~/features/market/orders/orders.server";
import { payTestOrder } from "~/features/market/checkout/checkout.server";
import * as auth from "~/routes/_auth+/auth";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { SHOPIFY_TEST_CLIENT_ID, SHOPIFY_TEST_CLIENT_SECRET } from "#tests/mocks/shopify";
import { startSftpServer } from "#tests/setup/sftp-server";
import { configure, WALLET } from "./world";
import { apiRoutes } from "#tests/setup/api-routes";
import { storedDatabaseBytes } from "#tests/setup/db-tables";
import { connectOpenSeaByKey } from "#tests/setup/integrations";
import { createCheckoutSession } from "#tests/setup/stripe";

const { adminUsersRoute, tokenLoginRoute, integrationsRoute, authorizeRoute, paymentStatusRoute } =
  apiRoutes({
    adminUsersRoute: "/api/admin/users",
    tokenLoginRoute: "/api/token-login",
    integrationsRoute: "/api/token-marketplace-integrations",
    authorizeRoute: "/api/oauth/{platform}/authorize",
    paymentStatusRoute: "/api/payment-status/{sessionId}",
  });

/**
 * After accounts, bearer tokens, web sessions, platform keys, OAuth tokens
 * (Shopify's access and refresh tokens and their expiries), OAuth states
 * and buyers' download links have been made through the product's own routes,
 * the stored database holds none of them in plain text: on SQLite the raw
 * bytes of the file and its write-ahead log, on PostgreSQL every cell of every
 * table (the server's files are not the test's to read).
 */

const sentinel = (label: string) => `${label}-${crypto.randomBytes(12).toString("hex")}`;

describe("secrets at rest", () => {
  it("the stored database (SQLite's file and WAL, PostgreSQL's rows) holds no plaintext password, token, session secret, platform key or download token", async () => {
    const db = getDb();
    const restore = configure({
      SHOPIFY_CLIENT_ID: SHOPIFY_TEST_CLIENT_ID,
      SHOPIFY_CLIENT_SECRET: SHOPIFY_TEST_CLIENT_SECRET,
    });
    try {
      const secrets: Record<string, string> = {};
      const admin = await createTestAdmin();
      const creator = await createTestUser({ email: "creator@example.com" });
      secrets["the test password"] = TEST_PASSWORD;
      secrets["a bearer token"] = creator.token;
      secrets["the admin's bearer token"] = admin.token;
      secrets["a web session secret"] = (await readSessionSecret(
        makeRequest("/", { cookie: creator.cookie }),
      ))!;

      // An account the admin creates, with a password of its own.
      const password = sentinel("Passw0rd");
      secrets["a password set by the admin"] = password;
      const made = await callRoute(
        adminUsersRoute.action,
        makeRequest("/api/admin/users", {
          token: admin.token,
          json: { email: "made@example.com", password, firstName: "Made", lastName: "User" },
        }),
      );
      expect(made.status).toBe(201);

      // Signing in: by token, and on the web form (a session cookie).
      const login = await callRoute(
        tokenLoginRoute.action,
        makeRequest("/api/token-login", { json: { email: "made@example.com", password } }),
      );
      expect(login.status).toBe(200);
      secrets["a token from /api/token-login"] = ((await login.json()) as { token: string }).token;
      const web = await callRoute(
        auth.action,
        formRequest("/auth", {
          intent: "login",
          redirectTo: "/dashboard",
          email: "made@example.com",
          password,
        }),
      );
      expect(web.status).toBe(302);
      secrets["a session secret from the sign-in form"] = (await readSessionSecret(
        makeRequest("/", { cookie: cookiesFrom(web) }),
      ))!;

      // Platform credentials: a key typed into the API, a token an OAuth exchange gave.
      const apiKey = sentinel("opensea-api-key");
      secrets["an OpenSea API key"] = apiKey;
      await connectOpenSeaByKey(creator.token, apiKey, WALLET);
      // An Adobe Stock SFTP password, checked against a real SFTP server before it is saved.
      const sftpPassword = sentinel("sftp-password");
      secrets["an Adobe Stock SFTP password"] = sftpPassword;
      const sftp = await startSftpServer({ users: { "208400001": sftpPassword } });
      const restoreSftp = configure({
        ADOBE_STOCK_SFTP_HOST: sftp.host,
        ADOBE_STOCK_SFTP_PORT: sftp.port,
      });
      try {
        const sftpConnected = await callRoute(
          integrationsRoute.action,
          makeRequest("/api/token-marketplace-integrations", {
            token: creator.token,
            json: { platform: "adobestock", username: "208400001", apiKey: sftpPassword },
          }),
        );
        expect(sftpConnected.status).toBe(201);
      } finally {
        restoreSftp();
        await sftp.close();
      }
      const accessToken = sentinel("shpat");
      secrets["a Shopify access token"] = accessToken;
      const refreshToken = sentinel("shprt");
      secrets["a Shopify refresh token"] = refreshToken;
      const expiresAt = new Date(Date.UTC(2031, 4, 6, 7, 8, 9));
      const refreshTokenExpiresAt = new Date(Date.UTC(2032, 5, 7, 8, 9, 10));
      secrets["a Shopify access token's expiry"] = expiresAt.toISOString();
      secrets["a Shopify refresh token's expiry"] = refreshTokenExpiresAt.toISOString();
      await saveOAuthIntegration(db, {
        userId: creator.user.id,
        platform: "shopify",
        accessToken,
        refreshToken,
        expiresAt,
        refreshTokenExpiresAt,
        scopes: ["write_products"],
        shopDomain: "creator-store.myshopify.com",
        now: new Date(),
      });
      const authorize = await callRoute(
        authorizeRoute.loader,
        makeRequest("/api/oauth/shopify/authorize?shop=creator-store", { token: creator.token }),
        { platform: "shopify" },
      );
      expect(authorize.status).toBe(200);
      secrets["an OAuth state"] = new URL(
        ((await authorize.json()) as { authUrl: string }).authUrl,
      ).searchParams.get("state")!;

      // A buyer's download link: its token is a bearer secret as well.
      const { listing } = await createListing(creator.user.id);
      const checkout = await createCheckoutSession([{ imageId: listing.id }], {
        name: "Bea Buyer",
        email: "bea@example.com",
      });
      const { sessionId } = (await checkout.json()) as { sessionId: string };
      await payTestOrder(db, (await findOrderBySessionId(db, sessionId))!, new Date());
      const status = await callRoute(
        paymentStatusRoute.loader,
        makeRequest(`/api/payment-status/${sessionId}`),
        { sessionId },
      );
      const { downloads } = (await status.json()) as { downloads: { downloadUrl: string }[] };
      expect(downloads).toHaveLength(1);
      secrets["a download token"] = new URL(downloads[0].downloadUrl, "http://localhost").pathname
        .split("/")
        .pop()!;

      const bytes = await storedDatabaseBytes();
      // The scan sees what the app wrote (so a secret stored in plain text would be found too).
      for (const stored of [
        "made@example.com",
        "creator-store.myshopify.com",
        WALLET,
        "Bea Buyer",
      ]) {
        expect(bytes.includes(Buffer.from(stored)), `${stored} is on disk`).toBe(true);
      }
      for (const [what, secret] of Object.entries(secrets)) {
        expect(secret.length, what).toBeGreaterThanOrEqual(10);
        expect(bytes.includes(Buffer.from(secret)), `${what} is stored in plain text`).toBe(false);
      }
      // Only the last four characters of a platform key are kept readable, for the screens.
      expect(bytes.includes(Buffer.from(apiKey.slice(-8)))).toBe(false);
    } finally {
      restore();
    }
  });
});
