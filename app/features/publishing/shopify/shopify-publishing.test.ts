import { describe, expect, it } from "vitest";
import {
  forgetShopifyConnections,
  withShopifyMock,
  shopifyWebhookRequest,
} from "#tests/setup/shopify";
import { getDb } from "~/infra/db.server";
import { ShopifyAdminClient } from "~/infra/shopify/shopify-admin.server";
import {
  isStoreTakenConflict,
  openIntegration,
  platformConnections,
  saveOAuthIntegration,
} from "~/features/publishing/integrations/integrations.server";
import {
  migrateNonExpiringShopifyTokens,
  REFRESH_MARGIN_MS,
  shopifyTokenSource,
} from "~/features/publishing/shopify/shopify-tokens.server";
import { normalizeShopDomain } from "~/lib/shop-domain";
import { integrationsScreen } from "~/features/publishing/integrations/procedures.server";
import { plainContext } from "~/infra/call-context.server";
import { invoke } from "~/infra/procedure.server";
import crypto from "node:crypto";
import sharp from "sharp";
import * as media from "~/routes/_resources+/media.$";
import { getFileStore, newFileKey } from "~/infra/file-store.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import {
  shopifyMock,
  signShopifyCallback,
  SHOPIFY_TEST_CLIENT_ID,
  SHOPIFY_TEST_CLIENT_SECRET,
} from "#tests/mocks/shopify";
import { apiRoutes } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";
import { rowWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const { authorize, callback, post, publications, webhook } = apiRoutes({
  authorize: "/api/oauth/{platform}/authorize",
  callback: "/api/oauth/{platform}/callback",
  post: "/api/marketplace/post",
  publications: "/api/publications",
  webhook: "/api/webhooks/shopify",
});

/**
 * Shopify as a real store behaves, through msw at Shopify's HTTP edge:
 * expiring offline tokens renewed before expiry and after a 401 (once, even
 * for concurrent callers), the "reconnect" state when renewal is refused, the
 * password-protected development store, the digital variant, the Online Store
 * publication by catalog title, media that Shopify fails to process, and the
 * admin URL form of a store.
 */

const SHOP = "test-store.myshopify.com";
const APP = { clientId: SHOPIFY_TEST_CLIENT_ID, clientSecret: SHOPIFY_TEST_CLIENT_SECRET };
withShopifyMock({ app: true, worker: { shopifyMediaPolling: { attempts: 3, delayMs: 1 } } });

/** Connects Shopify through the app's own authorize and callback routes; answers the access token Shopify issued. */
async function connect(
  user: { token: string; cookie: string },
  shopInput = "test-store",
): Promise<string> {
  const started = await callRoute(
    authorize.loader,
    makeRequest(
      `/api/oauth/shopify/authorize?shop=${encodeURIComponent(shopInput)}&display=popup`,
      { token: user.token },
    ),
    { platform: "shopify" },
  );
  expect(started.status).toBe(200);
  const authUrl = new URL((await started.json()).authUrl);
  const { code, token } = shopifyMock.issueCode(SHOP);
  const query = signShopifyCallback({
    code,
    shop: SHOP,
    state: authUrl.searchParams.get("state")!,
    timestamp: "1795000000",
  });
  const done = await callRoute(
    callback.loader,
    makeRequest(`/api/oauth/shopify/callback?${query}`, { cookie: user.cookie }),
    { platform: "shopify" },
    { ties: testTies, clientIp: "203.0.113.9", nonce: "n" },
  );
  expect(done.status).toBe(200);
  return token;
}

async function publishToShopify(token: string, imageId: string, title = "Portrait") {
  const response = await callRoute(
    post.action,
    makeRequest("/api/marketplace/post", {
      token,
      json: { imageId, platforms: ["shopify"], title, price: "12" },
    }),
  );
  expect(response.status).toBe(200);
  return (await response.json()).results[0] as {
    success: boolean;
    status: string;
    url?: string;
    error?: string;
  };
}

async function shopifyPublication(token: string, imageId: string) {
  const answer = await callRoute(
    publications.loader,
    makeRequest(`/api/publications?imageId=${imageId}`, { token }),
  );
  return (
    (await answer.json()).platforms as {
      id: string;
      status: string;
      url: string | null;
      error: string | null;
      note: string | null;
    }[]
  ).find((platform) => platform.id === "shopify")!;
}

describe("expiring offline tokens", () => {
  it("renews a token that expires within the margin before using it (no 401 first), and stores the rotated pair sealed", async () => {
    shopifyMock.accessTokenTtlSeconds = 120; // already inside the 5-minute margin
    const alice = await createTestUser();
    const first = await connect(alice);
    const before = await openIntegration(getDb(), alice.user.id, "shopify");
    shopifyMock.accessTokenTtlSeconds = 3600; // the renewed one lasts the usual hour
    const image = await createStylizedImage(alice.user.id);

    const result = await publishToShopify(alice.token, image.id);
    expect(result).toMatchObject({ success: true, status: "live" });
    expect(shopifyMock.refreshes).toEqual([
      { shop: SHOP, refreshToken: before!.credential.refreshToken, accepted: true },
    ]);
    // Every Admin API call went with the renewed token: the old one was never tried.
    const used = new Set(shopifyMock.graphql.map((call) => call.token));
    expect(used.has(first)).toBe(false);
    expect(used.size).toBe(1);

    const after = await openIntegration(getDb(), alice.user.id, "shopify");
    expect(after!.secret).toBe([...used][0]);
    expect(after!.credential.refreshToken).not.toBe(before!.credential.refreshToken);
    expect(shopifyMock.refreshTokens.has(after!.credential.refreshToken!)).toBe(true);
    expect(after!.row.credentials).not.toContain(after!.credential.refreshToken!);
    expect(after!.row.credentials).not.toContain(after!.secret);
    expect(after!.row.key_last4).toBe(after!.secret.slice(-4));
  });

  it("renews once after a 401 and repeats the call with the new token", async () => {
    const alice = await createTestUser();
    const first = await connect(alice);
    shopifyMock.tokens.delete(first); // Shopify stopped taking it before its stated expiry
    const image = await createStylizedImage(alice.user.id);

    const result = await publishToShopify(alice.token, image.id);
    expect(result).toMatchObject({ success: true, status: "live" });
    expect(shopifyMock.refreshes).toHaveLength(1);
    expect(shopifyMock.graphql[0].token).toBe(first);
    expect(shopifyMock.graphql.slice(1).every((call) => call.token !== first)).toBe(true);
    expect(shopifyMock.graphql[1].operation).toBe(shopifyMock.graphql[0].operation);
  });

  it("renews once for concurrent callers (refresh tokens rotate), and the proactive margin is five minutes", async () => {
    expect(REFRESH_MARGIN_MS).toBe(5 * 60 * 1000);
    shopifyMock.accessTokenTtlSeconds = 60;
    shopifyMock.refreshDelayMs = 50;
    const alice = await createTestUser();
    const first = await connect(alice);
    const sources = [0, 1, 2].map(() =>
      shopifyTokenSource(getDb(), { userId: alice.user.id, app: APP, now: () => new Date() }),
    );
    const tokens = await Promise.all([
      ...sources.map((source) => source.token()),
      sources[0].refreshAfterRejection(first),
    ]);
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(first);
    expect(shopifyMock.refreshes).toHaveLength(1);

    // Two Admin API clients that both meet a 401 with the same token renew once between them.
    shopifyMock.tokens.delete(tokens[0]);
    const clients = sources.slice(0, 2).map((source) => new ShopifyAdminClient(SHOP, source));
    shopifyMock.accessTokenTtlSeconds = 3600;
    await Promise.all(
      clients.map((client) => client.graphql("query SelfieStudioShop { shop { name } }")),
    );
    expect(shopifyMock.refreshes).toHaveLength(2);
    expect(shopifyMock.refreshes.every((refresh) => refresh.accepted)).toBe(true);
  });

  it("puts the connection in its reconnect state when the refresh is refused, and fails the publication without retrying", async () => {
    const alice = await createTestUser();
    const first = await connect(alice);
    shopifyMock.tokens.delete(first);
    shopifyMock.refreshTokens.clear(); // invalid_grant from now on
    const image = await createStylizedImage(alice.user.id);

    const result = await publishToShopify(alice.token, image.id);
    expect(result).toMatchObject({ success: false, status: "needs_auth" });
    expect(result.error).toMatch(/connect Shopify again/);
    expect(shopifyMock.refreshes).toEqual([expect.objectContaining({ accepted: false })]);

    const shopify = (await platformConnections(getDb(), alice.user.id)).find(
      (connection) => connection.platform === "shopify",
    )!;
    expect(shopify.isActive).toBe(false);
    expect(shopify.integration).toMatchObject({
      state: "reconnect",
      isActive: false,
      shopDomain: SHOP,
    });
    expect(shopify.integration!.lastError).toMatch(/could not be renewed/);

    // Publishing again does not keep knocking: it says to reconnect at once.
    const again = await publishToShopify(alice.token, image.id);
    expect(again).toMatchObject({ success: false, status: "needs_auth" });
    expect(shopifyMock.refreshes).toHaveLength(1);

    // Connecting again clears the state.
    await connect(alice);
    const back = (await platformConnections(getDb(), alice.user.id)).find(
      (connection) => connection.platform === "shopify",
    )!;
    expect(back.integration).toMatchObject({ state: "connected", isActive: true, lastError: null });
  });
});

describe("publishing to a real store", () => {
  it("on a password-protected development store: published with onlineStoreUrl null, the URL from the primary domain and handle, and a note", async () => {
    shopifyMock.passwordProtected = true;
    const alice = await createTestUser();
    await connect(alice);
    const image = await createStylizedImage(alice.user.id);
    const result = await publishToShopify(alice.token, image.id, "Dev Store Portrait");
    const [product] = [...shopifyMock.products.values()];
    expect(product.published).toBe(true);
    expect(result).toMatchObject({
      success: true,
      status: "live",
      url: `https://${SHOP}/products/${product.handle}`,
    });
    // Shopify answered no storefront URL; nothing was retried.
    expect(
      shopifyMock.graphql.filter((call) => call.operation === "SelfieStudioProductState"),
    ).toHaveLength(1);
    const shown = await shopifyPublication(alice.token, image.id);
    expect(shown).toMatchObject({ status: "live", error: null });
    expect(shown.note).toMatch(/password-protected/);
  });

  it("takes the address from the shop's primary domain when Shopify gives no storefront URL", async () => {
    shopifyMock.withholdStorefrontUrl = true;
    shopifyMock.primaryDomainHost = "prints.example.com";
    const alice = await createTestUser();
    await connect(alice);
    const image = await createStylizedImage(alice.user.id);
    const result = await publishToShopify(alice.token, image.id);
    const [product] = [...shopifyMock.products.values()];
    expect(result.url).toBe(`https://prints.example.com/products/${product.handle}`);
    expect((await shopifyPublication(alice.token, image.id)).note).toBeNull();
  });

  it("sends the variant as a digital good and finds the Online Store publication by its catalog title", async () => {
    const alice = await createTestUser();
    await connect(alice);
    const image = await createStylizedImage(alice.user.id);
    await publishToShopify(alice.token, image.id);
    const priced = shopifyMock.graphql.find(
      (call) => call.operation === "SelfieStudioVariantPrice",
    )!;
    expect(priced.variables.variants).toEqual([
      {
        id: expect.stringMatching(/^gid:\/\/shopify\/ProductVariant\//),
        price: "12.00",
        inventoryItem: { requiresShipping: false, tracked: false },
      },
    ]);
    expect([...shopifyMock.products.values()][0]).toMatchObject({
      requiresShipping: false,
      tracked: false,
    });
    // The mock lists Point of Sale first and answers no deprecated `name`: only the catalog title finds the Online Store.
    const published = shopifyMock.graphql.find((call) => call.operation === "SelfieStudioPublish")!;
    expect(published.variables.input).toEqual([{ publicationId: "gid://shopify/Publication/1" }]);
    // The product link records its store, so that store's uninstall webhook finds it.
    const row = await rowWhere("listing_platforms", "*", "stylized_image_id", image.id);
    expect(row).toMatchObject({
      external_id: [...shopifyMock.products.keys()][0],
      external_shop: SHOP,
    });
  });

  it("reports an image Shopify failed to process, and does not put the product on sale", async () => {
    shopifyMock.mediaStatus = "FAILED";
    const alice = await createTestUser();
    await connect(alice);
    const image = await createStylizedImage(alice.user.id);
    const result = await publishToShopify(alice.token, image.id);
    expect(result).toMatchObject({ success: false, status: "failed" });
    expect(result.error).toMatch(
      /could not process the image \(Image could not be downloaded: Could not download/,
    );
    expect(shopifyMock.graphql.some((call) => call.operation === "SelfieStudioPublish")).toBe(
      false,
    );
    expect([...shopifyMock.products.values()][0].published).toBe(false);
  });

  it("waits a bounded number of reads for an image still processing, then publishes with a note", async () => {
    shopifyMock.mediaStatus = "PROCESSING";
    const alice = await createTestUser();
    await connect(alice);
    const image = await createStylizedImage(alice.user.id);
    const result = await publishToShopify(alice.token, image.id);
    expect(result).toMatchObject({ success: true, status: "live" });
    expect(
      shopifyMock.graphql.filter((call) => call.operation === "SelfieStudioProductMedia"),
    ).toHaveLength(3);
    expect((await shopifyPublication(alice.token, image.id)).note).toMatch(
      /still processing the image/,
    );
  });
});

describe("uninstalling the app", () => {
  it("after a real publish, app/uninstalled (signed with the client secret) removes the connection and the listing's link", async () => {
    const alice = await createTestUser();
    await connect(alice);
    const image = await createStylizedImage(alice.user.id);
    expect((await publishToShopify(alice.token, image.id)).status).toBe("live");
    const body = JSON.stringify({ id: 1, myshopify_domain: SHOP });
    const answer = await callRoute(
      webhook.action,
      shopifyWebhookRequest(body, {
        topic: "app/uninstalled",
        shop: SHOP,
        secret: SHOPIFY_TEST_CLIENT_SECRET,
        headers: { "X-Shopify-Webhook-Id": null },
      }),
    );
    expect(answer.status).toBe(200);
    expect(await openIntegration(getDb(), alice.user.id, "shopify")).toBeNull();
    const shown = await shopifyPublication(alice.token, image.id);
    expect(shown).toMatchObject({ status: "needs_auth", url: null, note: null });
    expect(shown.error).toMatch(/removed from this Shopify store/);
  });
});

describe("the store's admin address", () => {
  it("is accepted as admin.shopify.com/store/<handle>, and anything else on admin.shopify.com is not", async () => {
    for (const input of [
      "admin.shopify.com/store/test-store",
      "https://admin.shopify.com/store/test-store",
      "https://admin.shopify.com/store/Test-Store/products?selectedView=all",
      "http://admin.shopify.com/store/test-store/",
    ]) {
      expect(normalizeShopDomain(input), input).toBe(SHOP);
    }
    for (const input of [
      "https://admin.shopify.com/",
      "https://admin.shopify.com/stores/test-store",
      "https://admin.shopify.com/store/",
      "https://admin.shopify.com/store/bad_name",
      "https://evil.example/store/test-store",
    ]) {
      expect(normalizeShopDomain(input), input).toBeNull();
    }
    const alice = await createTestUser();
    await connect(alice, "https://admin.shopify.com/store/test-store");
    expect((await openIntegration(getDb(), alice.user.id, "shopify"))?.row.shop_domain).toBe(SHOP);
  });
});

describe("one connection per store", () => {
  async function startAuthorize(user: { token: string }) {
    return callRoute(
      authorize.loader,
      makeRequest(`/api/oauth/shopify/authorize?shop=test-store&display=popup`, {
        token: user.token,
      }),
      { platform: "shopify" },
    );
  }
  async function finishCallback(user: { cookie: string }, authUrl: string) {
    const { code } = shopifyMock.issueCode(SHOP);
    const query = signShopifyCallback({
      code,
      shop: SHOP,
      state: new URL(authUrl).searchParams.get("state")!,
      timestamp: "1795000000",
    });
    const response = await callRoute(
      callback.loader,
      makeRequest(`/api/oauth/shopify/callback?${query}`, { cookie: user.cookie }),
      { platform: "shopify" },
      { ties: testTies, clientIp: "203.0.113.9", nonce: "n" },
    );
    return { response, html: await response.text() };
  }

  it("a second connection saved to the same store is refused by the unique index, which the callback knows as 'store taken'", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const save = (userId: string) =>
      saveOAuthIntegration(getDb(), {
        userId,
        platform: "shopify",
        accessToken: `shpat_${userId}`,
        scopes: ["write_products"],
        shopDomain: "race-store.myshopify.com",
        now: new Date(),
      });
    await save(alice.user.id);
    const refused = await save(bob.user.id).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isStoreTakenConflict(refused)).toBe(true);
    expect(isStoreTakenConflict(new Error("something else"))).toBe(false);
    expect(await openIntegration(getDb(), bob.user.id, "shopify")).toBeNull();
  });

  it("refuses a second creator's connection to a connected store, and the first creator keeps publishing", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    // Bob starts before Alice has connected (so he has a valid state), then Alice connects.
    const bobStart = await startAuthorize(bob);
    expect(bobStart.status).toBe(200);
    const aliceToken = await connect(alice);
    const aliceBefore = await openIntegration(getDb(), alice.user.id, "shopify");

    // Starting now is refused at once, with the sentence.
    const refusedStart = await startAuthorize(bob);
    expect(refusedStart.status).toBe(400);
    expect(JSON.stringify(await refusedStart.json())).toMatch(
      /already connected to Selfie Studio by another creator/,
    );

    // A callback that was already on its way is refused before the code is exchanged.
    const exchangesBefore = shopifyMock.exchanges.length;
    const { html } = await finishCallback(bob, (await bobStart.json()).authUrl);
    expect(html).toContain("already connected to Selfie Studio by another creator");
    expect(shopifyMock.exchanges).toHaveLength(exchangesBefore);
    expect(shopifyMock.revoked).toEqual([]);
    expect(await openIntegration(getDb(), bob.user.id, "shopify")).toBeNull();

    // Nothing of Alice's changed, and her next publication works with her token.
    const aliceAfter = await openIntegration(getDb(), alice.user.id, "shopify");
    expect(aliceAfter!.row).toEqual(aliceBefore!.row);
    const image = await createStylizedImage(alice.user.id);
    expect(await publishToShopify(alice.token, image.id)).toMatchObject({
      success: true,
      status: "live",
    });
    expect(shopifyMock.graphql.every((call) => call.token === aliceToken)).toBe(true);

    // The integrations screen tells Bob the same when he names the store (and offers no link to Shopify).
    const bobScreen = await invoke(
      integrationsScreen,
      bob.user,
      { connect: "shopify", shop: "test-store" },
      plainContext("http://localhost", { ties: testTies }),
    );
    expect(bobScreen.shopError).toMatch(
      /test-store\.myshopify\.com is already connected to Selfie Studio by another creator/,
    );
    expect(bobScreen.connectLinks.shopify).toBeUndefined();
    const screen = await callRoute(
      authorize.loader,
      makeRequest(
        `/api/oauth/shopify/authorize?shop=${encodeURIComponent("https://admin.shopify.com/store/test-store")}`,
        { token: bob.token },
      ),
      { platform: "shopify" },
    );
    expect(screen.status).toBe(400);

    // Once Alice disconnects, Bob can connect.
    await getDb().deleteFrom("integrations").where("user_id", "=", alice.user.id).execute();
    await connect(bob);
    expect((await openIntegration(getDb(), bob.user.id, "shopify"))?.row.shop_domain).toBe(SHOP);
  });

  it("the mock store revokes the app's earlier token when a new one is issued, as Shopify does (a custom app's stays)", async () => {
    const alice = await createTestUser();
    shopifyMock.acceptToken(SHOP, "shpat_custom_app");
    const first = await connect(alice);
    const second = await connect(alice);
    expect(second).not.toBe(first);
    expect(shopifyMock.revoked).toEqual([{ shop: SHOP, token: first }]);
    expect(shopifyMock.tokens.has(first)).toBe(false);
    expect(shopifyMock.tokens.get("shpat_custom_app")).toBe(SHOP);
    // The database's index also holds a second active OAuth row for the store off.
    const bob = await createTestUser();
    await expect(
      getDb()
        .insertInto("integrations")
        .values({
          id: crypto.randomUUID(),
          user_id: bob.user.id,
          platform: "shopify",
          method: "oauth",
          credentials: "x",
          key_last4: "xxxx",
          shop_domain: SHOP,
          created_at: "2026-11-26T00:00:00.000Z",
          updated_at: "2026-11-26T00:00:00.000Z",
        })
        .execute(),
    ).rejects.toThrow(
      /UNIQUE constraint failed: integrations\.shop_domain|integrations_one_shopify_connection_per_store/,
    );
  });
});

describe("non-expiring tokens from before expiring ones", () => {
  async function legacyConnection(
    user: { user: { id: string } },
    token = `shpat_legacy_${crypto.randomBytes(6).toString("hex")}`,
  ) {
    shopifyMock.acceptToken(SHOP, token, { appIssued: true });
    await saveOAuthIntegration(getDb(), {
      userId: user.user.id,
      platform: "shopify",
      accessToken: token,
      scopes: ["write_products", "write_publications"],
      shopDomain: SHOP,
      now: new Date(),
    });
    return token;
  }

  it("are exchanged for an expiring pair on first use (Shopify's token exchange), and the publication goes out with the new token", async () => {
    const alice = await createTestUser();
    const legacy = await legacyConnection(alice);
    const image = await createStylizedImage(alice.user.id);

    expect(await publishToShopify(alice.token, image.id)).toMatchObject({
      success: true,
      status: "live",
    });
    expect(shopifyMock.migrations).toEqual([{ shop: SHOP, subjectToken: legacy, accepted: true }]);
    expect(shopifyMock.revoked).toEqual([{ shop: SHOP, token: legacy }]);
    const after = await openIntegration(getDb(), alice.user.id, "shopify");
    expect(after!.secret).not.toBe(legacy);
    expect(after!.credential.refreshToken).toMatch(/^shprt_/);
    expect(Date.parse(after!.credential.expiresAt!)).toBeGreaterThan(Date.now());
    expect(shopifyMock.graphql.length).toBeGreaterThan(0);
    expect(shopifyMock.graphql.every((call) => call.token === after!.secret)).toBe(true);
  });

  it("are exchanged by the daily sweep for connections nobody uses; a refused exchange keeps the old token working", async () => {
    const alice = await createTestUser();
    const legacy = await legacyConnection(alice);
    expect(
      await migrateNonExpiringShopifyTokens(getDb(), { app: APP, now: () => new Date() }),
    ).toBe(1);
    expect(
      (await openIntegration(getDb(), alice.user.id, "shopify"))!.credential.expiresAt,
    ).toBeTruthy();
    expect(shopifyMock.tokens.has(legacy)).toBe(false);
    // Nothing left to exchange.
    expect(
      await migrateNonExpiringShopifyTokens(getDb(), { app: APP, now: () => new Date() }),
    ).toBe(0);
    expect(shopifyMock.migrations).toHaveLength(1);

    // Shopify refuses the exchange (e.g. the app's secret was rotated): the old token is still used, not dropped.
    await forgetShopifyConnections();
    shopifyMock.reset();
    const bob = await createTestUser();
    const old = await legacyConnection(bob);
    const source = shopifyTokenSource(getDb(), {
      userId: bob.user.id,
      app: { clientId: APP.clientId, clientSecret: "rotated" },
      now: () => new Date(),
    });
    expect(await source.token()).toBe(old);
    expect(shopifyMock.migrations).toEqual([{ shop: SHOP, subjectToken: old, accepted: false }]);
    expect((await openIntegration(getDb(), bob.user.id, "shopify"))!.secret).toBe(old);
  });
});

describe("the product's media", () => {
  it("is the marketplace listing's watermarked preview (at most 1,200 px), never the clean file: read from what reached Shopify's GraphQL endpoint", async () => {
    const alice = await createTestUser();
    await connect(alice);
    const image = await createStylizedImage(alice.user.id);
    // A large clean file, as a real style is: 2400 x 1600.
    const clean = await sharp({
      create: { width: 2400, height: 1600, channels: 3, background: { r: 200, g: 120, b: 60 } },
    })
      .jpeg({ quality: 92 })
      .toBuffer();
    const cleanKey = newFileKey("styled", "jpg");
    await getFileStore().write(cleanKey, clean);
    await updateWhere(
      "stylized_images",
      { file_key: cleanKey, width: 2400, height: 1600 },
      "id",
      image.id,
    );

    const result = await publishToShopify(alice.token, image.id, "Media Portrait");
    expect(result).toMatchObject({ success: true, status: "live" });

    // What the connector sent Shopify as the product's media (productCreate's variables, through msw).
    const [product] = [...shopifyMock.products.values()];
    expect(product.media).toHaveLength(1);
    const source = new URL(product.media[0].originalSource);
    expect(source.searchParams.has("sig")).toBe(false); // public, as Shopify's CDN will be
    const key = decodeURIComponent(source.pathname.replace(/^\/media\//, ""));
    expect(key).toMatch(/^previews\//);
    expect(key).not.toBe(cleanKey);
    // It is the image's marketplace listing's preview (listed for the occasion: Shopify buyers are delivered from it).
    const listing = await getDb()
      .selectFrom("listings")
      .selectAll()
      .where("stylized_image_id", "=", image.id)
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    expect(listing.preview_key).toBe(key);

    // Fetched as Shopify fetches it: through the /media route, with no signature.
    const served = await callRoute(media.loader, makeRequest(source.pathname, { origin: "none" }), {
      "*": key,
    });
    expect(served.status).toBe(200);
    const bytes = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(1200);
    expect(Math.max(meta.width!, meta.height!)).toBeLessThan(2400);
    // Watermarked: not the clean pixels scaled down (the flat colour is crossed by the tiled word).
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const distinct = new Set<number>();
    for (let i = 0; i < data.length; i += info.channels * 97) distinct.add(data[i]);
    expect(distinct.size).toBeGreaterThan(8);
    expect(bytes.equals(clean)).toBe(false);
  });
});
