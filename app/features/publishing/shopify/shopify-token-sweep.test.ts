import { describe, expect, it } from "vitest";
import { withShopifyMock, saveIssuedShopifyPair } from "#tests/setup/shopify";
import { getDb } from "~/infra/db.server";
import {
  findIntegration,
  integrationJson,
  openIntegration,
} from "~/features/publishing/integrations/integrations.server";
import {
  RECONNECT_MESSAGE,
  refreshShopifyPairsNearExpiry,
} from "~/features/publishing/shopify/shopify-tokens.server";
import { createTestUser } from "#tests/setup/accounts";
import {
  shopifyMock,
  SHOPIFY_TEST_CLIENT_ID,
  SHOPIFY_TEST_CLIENT_SECRET,
} from "#tests/mocks/shopify";

/**
 * The daily sweep that keeps connections nobody uses alive: Shopify's refresh
 * token lasts 90 days and is only replaced when used, so a pair whose refresh
 * token runs out within a week is renewed, through msw at Shopify's token
 * endpoint, on a fake clock (the store's and the app's).
 */

const SHOP = "sweep-store.myshopify.com";
const APP = { clientId: SHOPIFY_TEST_CLIENT_ID, clientSecret: SHOPIFY_TEST_CLIENT_SECRET };
const DAY_MS = 24 * 60 * 60 * 1000;
/** When the pairs of these tests were issued (any fixed day: nothing reads the machine's clock). */
const ISSUED_AT = Date.parse("2027-02-01T09:00:00.000Z");
withShopifyMock();

/** A creator connected at ISSUED_AT with a pair the store issued then (access 1 h, refresh 90 days). */
async function connectedAtIssue() {
  const { user } = await createTestUser();
  shopifyMock.now = () => ISSUED_AT;
  const issued = await saveIssuedShopifyPair(user.id, SHOP, { now: ISSUED_AT });
  return { user, issued };
}

function sweepOn(day: number) {
  const now = ISSUED_AT + day * DAY_MS;
  shopifyMock.now = () => now;
  return refreshShopifyPairsNearExpiry(getDb(), { app: APP, now: () => new Date(now) });
}

describe("the daily sweep of Shopify pairs near expiry", () => {
  it("renews a pair 85 days old (its refresh token runs out in 5 days) and stores the rotated pair", async () => {
    const { user, issued } = await connectedAtIssue();

    expect(await sweepOn(85)).toEqual({ renewed: 1, reconnect: 0 });

    expect(shopifyMock.refreshes).toEqual([
      { shop: SHOP, refreshToken: issued.refresh_token, accepted: true },
    ]);
    const after = await openIntegration(getDb(), user.id, "shopify");
    expect(after!.secret).not.toBe(issued.access_token);
    expect(after!.credential.refreshToken).not.toBe(issued.refresh_token);
    // The store knows the new refresh token: the next renewal works.
    expect(shopifyMock.refreshTokens.has(after!.credential.refreshToken!)).toBe(true);
    const renewedAt = ISSUED_AT + 85 * DAY_MS;
    expect(after!.credential.expiresAt).toBe(new Date(renewedAt + 3600 * 1000).toISOString());
    expect(after!.credential.refreshTokenExpiresAt).toBe(
      new Date(renewedAt + 90 * DAY_MS).toISOString(),
    );

    // The next day the pair is fresh again: nothing more is asked of Shopify.
    expect(await sweepOn(86)).toEqual({ renewed: 0, reconnect: 0 });
    expect(shopifyMock.refreshes).toHaveLength(1);
  });

  it("leaves a fresh pair alone (its refresh token has more than a week left), even with its access token expired", async () => {
    const { user, issued } = await connectedAtIssue();

    expect(await sweepOn(1)).toEqual({ renewed: 0, reconnect: 0 });
    expect(await sweepOn(82)).toEqual({ renewed: 0, reconnect: 0 });

    expect(shopifyMock.refreshes).toEqual([]);
    const after = await openIntegration(getDb(), user.id, "shopify");
    expect(after!.secret).toBe(issued.access_token);
    expect(after!.credential.refreshToken).toBe(issued.refresh_token);
  });

  it("puts the connection in its reconnect state when Shopify refuses the renewal (400 invalid_grant)", async () => {
    const { user, issued } = await connectedAtIssue();
    // The store no longer knows the refresh token (say, the app was reinstalled elsewhere).
    shopifyMock.refreshTokens.delete(issued.refresh_token);

    expect(await sweepOn(85)).toEqual({ renewed: 0, reconnect: 1 });

    expect(shopifyMock.refreshes).toEqual([
      { shop: SHOP, refreshToken: issued.refresh_token, accepted: false },
    ]);
    const row = await findIntegration(getDb(), user.id, "shopify");
    expect(integrationJson(row!)).toMatchObject({
      isActive: false,
      state: "reconnect",
      lastError: RECONNECT_MESSAGE,
    });
    // A connection in its reconnect state is not asked about again.
    expect(await sweepOn(86)).toEqual({ renewed: 0, reconnect: 0 });
    expect(shopifyMock.refreshes).toHaveLength(1);
  });

  it("puts a connection whose refresh token already ran out in its reconnect state without asking Shopify", async () => {
    const { user } = await connectedAtIssue();

    expect(await sweepOn(91)).toEqual({ renewed: 0, reconnect: 1 });

    expect(shopifyMock.refreshes).toEqual([]);
    expect((await findIntegration(getDb(), user.id, "shopify"))!.is_active).toBe(0);
  });
});
