import { describe, expect, it } from "vitest";
import {
  forgetShopifyConnections,
  withShopifyMock,
  saveIssuedShopifyPair,
} from "#tests/setup/shopify";
import { getConfig } from "~/infra/config.server";
import { getDb, openDatabase } from "~/infra/db.server";
import { openIntegration } from "~/features/publishing/integrations/integrations.server";
import { shopifyTokenSource } from "~/features/publishing/shopify/shopify-tokens.server";
import { createTestUser } from "#tests/setup/accounts";
import {
  shopifyMock,
  SHOPIFY_TEST_CLIENT_ID,
  SHOPIFY_TEST_CLIENT_SECRET,
} from "#tests/mocks/shopify";

/**
 * Token renewal across processes, on PostgreSQL: each "process" is a Kysely
 * instance with a pool of its own, so the per-process wait for a renewal in
 * flight does not join them; only the connection's row lock does. Shopify's
 * refresh token works once, so a second renewal with the same one would be
 * refused and the connection put in its reconnect state.
 */

const SHOP = "test-store.myshopify.com";
const APP = { clientId: SHOPIFY_TEST_CLIENT_ID, clientSecret: SHOPIFY_TEST_CLIENT_SECRET };
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
withShopifyMock();

describe.skipIf(!onPostgres)("Shopify token renewal between processes (PostgreSQL)", () => {
  it("renews once when two processes find the token expiring at the same moment, and both use the new pair", async () => {
    const processes = [0, 1, 2].map(() => openDatabase(getConfig().DATABASE_URL!));
    try {
      for (let round = 0; round < 10; round++) {
        shopifyMock.reset();
        await forgetShopifyConnections();
        shopifyMock.refreshDelayMs = 30;
        const { user } = await createTestUser();
        const issued = await saveIssuedShopifyPair(user.id, SHOP, {
          // Inside the five-minute margin: every caller renews (the renewed token lasts an hour).
          expiresAt: new Date(Date.now() + 60_000),
          scopes: ["write_products"],
        });

        const tokens = await Promise.all(
          processes.map((db) =>
            shopifyTokenSource(db, { userId: user.id, app: APP, now: () => new Date() }).token(),
          ),
        );

        expect(shopifyMock.refreshes).toEqual([
          { shop: SHOP, refreshToken: issued.refresh_token, accepted: true },
        ]);
        expect(new Set(tokens).size).toBe(1);
        expect(tokens[0]).not.toBe(issued.access_token);
        const stored = await openIntegration(getDb(), user.id, "shopify");
        expect(stored!.secret).toBe(tokens[0]);
        // The stored refresh token is the one Shopify rotated to: the next renewal will work.
        expect(shopifyMock.refreshTokens.has(stored!.credential.refreshToken!)).toBe(true);
      }
    } finally {
      await Promise.all(processes.map((db) => db.destroy()));
    }
  });
});
