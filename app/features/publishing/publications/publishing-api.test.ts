import { describe, expect, it } from "vitest";
import { withShopifyMock } from "#tests/setup/shopify";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { readZip } from "~/features/publishing/connectors/zip-archive.server";
import { openIntegration } from "~/features/publishing/integrations/integrations.server";
import { withdrawListing } from "~/features/market/catalog/listings.server";
import * as media from "~/routes/_resources+/media.$";
import { callRoute, makeRequest, ORIGIN } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import {
  shopifyMock,
  signShopifyCallback,
  SHOPIFY_TEST_CLIENT_ID,
  SHOPIFY_TEST_CLIENT_SECRET,
} from "#tests/mocks/shopify";
import { apiRoute, apiRoutes } from "#tests/setup/api-routes";
import { connectOpenSeaByKey } from "#tests/setup/integrations";
import { testTies } from "#tests/setup/ties";
import { rowWhere, rowsWhere } from "#tests/setup/rows-where";

const { authorize, callback, tokenIntegrations, launch, post, publications, download } = apiRoutes({
  authorize: "/api/oauth/{platform}/authorize",
  callback: "/api/oauth/{platform}/callback",
  tokenIntegrations: "/api/token-marketplace-integrations",
  launch: "/api/marketplace/launch",
  post: "/api/marketplace/post",
  publications: "/api/publications",
  download: "/api/publications/{id}/download",
});
const { loader: marketplaceApi } = apiRoute("/api/marketplace");

const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";
const SHOP = "test-store.myshopify.com";

withShopifyMock({ app: true, worker: true });

/** Connects Shopify the way a browser does: authorize, Shopify's redirect with a signed query, our callback. */
async function connectShopify(
  auth: { token: string; cookie: string },
  display: "popup" | "page" = "popup",
) {
  const response = await callRoute(
    authorize.loader,
    makeRequest(`/api/oauth/shopify/authorize?shop=Test-Store&display=${display}`, {
      token: auth.token,
    }),
    { platform: "shopify" },
  );
  expect(response.status).toBe(200);
  const { authUrl } = await response.json();
  const url = new URL(authUrl);
  const { code, token } = shopifyMock.issueCode(SHOP);
  const query = signShopifyCallback({
    code,
    host: Buffer.from(`admin.shopify.com/store/test-store`).toString("base64url"),
    shop: SHOP,
    state: url.searchParams.get("state")!,
    timestamp: "1795000000",
  });
  return { authUrl: url, query, token };
}

async function callCallback(query: URLSearchParams, cookie?: string) {
  return callRoute(
    callback.loader,
    makeRequest(`/api/oauth/shopify/callback?${query}`, { cookie }),
    { platform: "shopify" },
    { ties: testTies, clientIp: "203.0.113.7", nonce: "test-nonce" },
  );
}

/** A new creator with Shopify connected through the OAuth flow. */
async function creatorWithShopify() {
  const alice = await createTestUser();
  const { query } = await connectShopify(alice);
  await callCallback(query, alice.cookie);
  return alice;
}

/** POST /api/marketplace/post with `json`, as the holder of `token`. */
const postAs = (token: string, json: unknown) =>
  callRoute(post.action, makeRequest("/api/marketplace/post", { token, json }));

/** Posts a new stylized image of the user's to Shopify (title "T", price 5): the answer's body. */
async function postNewImageToShopify(user: { user: { id: string }; token: string }) {
  const image = await createStylizedImage(user.user.id);
  const response = await postAs(user.token, {
    imageId: image.id,
    platforms: ["shopify"],
    title: "T",
    price: "5",
  });
  return response.json();
}

async function connectOpenSea(token: string) {
  await connectOpenSeaByKey(token, "opensea-key-abcd", WALLET);
}

describe("Shopify OAuth", () => {
  it("builds the authorize URL for a validated shop, and the callback checks HMAC and state before storing the token", async () => {
    const alice = await createTestUser();
    const { authUrl, query, token } = await connectShopify(alice);
    expect(authUrl.origin).toBe(`https://${SHOP}`);
    expect(authUrl.pathname).toBe("/admin/oauth/authorize");
    expect(authUrl.searchParams.get("client_id")).toBe(SHOPIFY_TEST_CLIENT_ID);
    expect(authUrl.searchParams.get("scope")).toBe("write_products,write_publications,read_orders");
    expect(authUrl.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/api/oauth/shopify/callback`);

    const done = await callCallback(query, alice.cookie);
    expect(done.status).toBe(200);
    expect(done.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    const html = await done.text();
    expect(html).toContain("Connection Complete");
    expect(html).toContain('<script nonce="test-nonce">');
    expect(html).toContain("window.close()");
    // An expiring offline token is asked for; its refresh token and expiries are sealed with it.
    expect(shopifyMock.exchanges).toEqual([
      {
        shop: SHOP,
        clientId: SHOPIFY_TEST_CLIENT_ID,
        clientSecret: SHOPIFY_TEST_CLIENT_SECRET,
        code: query.get("code"),
        expiring: 1,
      },
    ]);

    const opened = await openIntegration(getDb(), alice.user.id, "shopify");
    expect(opened?.secret).toBe(token);
    expect(shopifyMock.refreshTokens.has(opened!.credential.refreshToken!)).toBe(true);
    expect(Date.parse(opened!.credential.expiresAt!) - Date.now()).toBeGreaterThan(3500_000);
    expect(Date.parse(opened!.credential.refreshTokenExpiresAt!) - Date.now()).toBeGreaterThan(
      89 * 24 * 3600_000,
    );
    expect(opened?.row.credentials).not.toContain(opened!.credential.refreshToken!);
    expect(opened?.row).toMatchObject({
      method: "oauth",
      shop_domain: SHOP,
      key_last4: token.slice(-4),
      is_active: 1,
    });
    expect(opened?.row.credentials).not.toContain(token);

    // The same callback again (a replayed state): refused, nothing exchanged.
    const replay = await callCallback(query, alice.cookie);
    expect(replay.status).toBe(302);
    expect(replay.headers.get("Location")).toBe("/integrations");
    expect(shopifyMock.exchanges).toHaveLength(1);
  });

  it("refuses a forged HMAC, another user's state, a different shop, and a signed-out callback", async () => {
    const alice = await createTestUser();
    const mallory = await createTestUser();

    const forged = await connectShopify(alice);
    forged.query.set("hmac", "0".repeat(64));
    const forgedAnswer = await callCallback(forged.query, alice.cookie);
    expect(forgedAnswer.status).toBe(400);
    expect(await forgedAnswer.text()).toContain("could not be verified");

    const stolen = await connectShopify(alice);
    const stolenAnswer = await callCallback(stolen.query, mallory.cookie);
    expect(stolenAnswer.status).toBe(302);

    const otherShop = await connectShopify(alice);
    const params = Object.fromEntries(otherShop.query);
    delete params.hmac;
    const resigned = signShopifyCallback({ ...params, shop: "evil-store.myshopify.com" });
    expect((await callCallback(resigned, alice.cookie)).status).toBe(400);

    const signedOut = await connectShopify(alice);
    const signedOutAnswer = await callCallback(signedOut.query);
    expect(signedOutAnswer.status).toBe(302);

    expect(shopifyMock.exchanges).toEqual([]);
    const stored = await getDb()
      .selectFrom("integrations")
      .selectAll()
      .where("user_id", "in", [alice.user.id, mallory.user.id])
      .execute();
    expect(stored).toEqual([]);
  });

  it("without JavaScript (display=page) the callback redirects to /integrations with 'Connection Complete'", async () => {
    const alice = await createTestUser();
    const { query } = await connectShopify(alice, "page");
    const response = await callCallback(query, alice.cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/integrations");
    expect(response.headers.get("Set-Cookie")).toMatch(/__flash=/);
  });

  it("answers 400 for a platform without OAuth, a bad shop, and when Shopify OAuth is not configured", async () => {
    const { token } = await createTestUser();
    const get = (path: string, platform: string) =>
      callRoute(authorize.loader, makeRequest(path, { token }), { platform });
    expect((await get("/api/oauth/opensea/authorize", "opensea")).status).toBe(400);
    expect((await get("/api/oauth/myspace/authorize", "myspace")).status).toBe(400);
    expect((await get("/api/oauth/shopify/authorize?shop=evil.com%2Fx", "shopify")).status).toBe(
      400,
    );
    expect((await get("/api/oauth/shopify/authorize", "shopify")).status).toBe(400);
    const config = getConfig();
    config.SHOPIFY_CLIENT_SECRET = undefined;
    try {
      const response = await get("/api/oauth/shopify/authorize?shop=test-store", "shopify");
      expect(response.status).toBe(400);
      expect((await response.json()).message).toMatch(/manual setup/);
    } finally {
      config.SHOPIFY_CLIENT_SECRET = SHOPIFY_TEST_CLIENT_SECRET;
    }
  });

  it("checks a custom-app Admin API token with Shopify before saving it (manual setup)", async () => {
    const { token } = await createTestUser();
    shopifyMock.acceptToken(SHOP, "shpat_custom_app_token_9999");
    const save = (apiKey: string) =>
      callRoute(
        tokenIntegrations.action,
        makeRequest("/api/token-marketplace-integrations", {
          token,
          json: { platform: "shopify", shopDomain: "test-store", apiKey },
        }),
      );
    const refused = await save("shpat_wrong");
    expect(refused.status).toBe(400);
    expect((await refused.json()).fieldErrors.apiKey).toEqual([
      "Shopify refused this access token",
    ]);
    const saved = await save("shpat_custom_app_token_9999");
    expect(saved.status).toBe(201);
    expect(await saved.json()).toMatchObject({
      platform: "shopify",
      shopDomain: SHOP,
      apiKeyLast4: "9999",
      isActive: true,
    });
  });
});

describe("launch and post", () => {
  it("launches to the own marketplace, Shopify, OpenSea and EyeEm and reports only what is true", async () => {
    const alice = await createTestUser({ firstName: "Ada", lastName: "Lovelace" });
    const { query } = await connectShopify(alice);
    expect((await callCallback(query, alice.cookie)).status).toBe(200);
    await connectOpenSea(alice.token);
    const image = await createStylizedImage(alice.user.id, { style: "anime" });

    const response = await callRoute(
      launch.action,
      makeRequest("/api/marketplace/launch", {
        token: alice.token,
        json: {
          imageId: image.id,
          title: "Anime Ada",
          description: "Ada, in anime.",
          price: "30",
          tags: "anime, portrait, , ada",
          enableLicensing: true,
          enableNFT: true,
          platforms: ["marketplace", "shopify", "opensea", "eyeem"],
        },
      }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.platformsLaunched).toBe(4);
    expect(body.viewsGenerated).toBe(600_000);
    expect(body.estimatedEarnings).toBe(1800);
    expect(body.estimate).toBe(true);
    const byId = Object.fromEntries(body.platforms.map((p: { id: string }) => [p.id, p]));
    expect(body.platforms.map((p: { id: string }) => p.id)).toEqual([
      "marketplace",
      "shopify",
      "opensea",
      "eyeem",
    ]);

    // The own marketplace: live, at a URL that shows the listing.
    expect(byId.marketplace).toMatchObject({
      name: "Selfie Studio",
      status: "live",
      icon: expect.any(String),
    });
    const listingId = new URL(byId.marketplace.url).pathname.split("/").pop();
    expect(byId.marketplace.url).toBe(`${ORIGIN}/marketplace/${listingId}`);
    const market = await (
      await callRoute(marketplaceApi, makeRequest(`/api/marketplace?listing=${listingId}`))
    ).json();
    expect(
      market.items.map((item: { id: string; title: string; price: string; tags: string[] }) => [
        item.id,
        item.title,
        item.price,
        item.tags,
      ]),
    ).toContainEqual([listingId, "Anime Ada", "30", ["anime", "portrait", "ada"]]);

    // Shopify: live with the storefront URL Shopify answered; the product carries the listing's public watermarked preview and
    // price, and its variant is a digital good (no shipping, inventory not tracked).
    const [product] = [...shopifyMock.products.values()];
    expect(byId.shopify).toMatchObject({
      status: "live",
      url: `https://${SHOP}/products/${product.handle}`,
      error: null,
      note: null,
    });
    expect(product).toMatchObject({
      title: "Anime Ada",
      price: "30.00",
      status: "ACTIVE",
      published: true,
      requiresShipping: false,
      tracked: false,
    });
    expect(product.tags).toEqual(["anime", "portrait", "ada", "AI generated", "Anime"]);
    expect(product.descriptionHtml).toContain("<p>Ada, in anime.</p>");
    const mediaUrl = new URL(product.media[0].originalSource);
    expect(product.media[0].mediaContentType).toBe("IMAGE");
    expect(mediaUrl.origin).toBe(ORIGIN);
    expect(mediaUrl.searchParams.has("sig")).toBe(false);
    expect(mediaUrl.pathname).toMatch(/^\/media\/previews\//);
    const fetched = await callRoute(
      media.loader,
      makeRequest(mediaUrl.pathname + mediaUrl.search),
      {
        "*": mediaUrl.pathname.replace("/media/", ""),
      },
    );
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("Content-Type")).toBe("image/jpeg");
    const operations = shopifyMock.graphql.map((call) => call.operation);
    expect(operations).toEqual([
      "SelfieStudioProductCreate",
      "SelfieStudioVariantPrice",
      "SelfieStudioProductMedia",
      "SelfieStudioPublications",
      "SelfieStudioPublish",
      "SelfieStudioProductState",
      "SelfieStudioStorefrontPassword",
    ]);
    expect(new Set(shopifyMock.graphql.map((call) => call.version))).toEqual(new Set(["2026-10"]));

    // OpenSea: a mint kit to download, never "live".
    expect(byId.opensea.status).toBe("ready_to_mint");
    expect(byId.opensea.url).toBe(byId.opensea.downloadUrl);
    /** The download of a publication's link, as `auth` (the page's cookie, the API's token, or signed out). */
    const downloaded = (
      publication: { downloadUrl: string; publicationId: string },
      auth: { cookie?: string; token?: string } = {},
    ) => {
      const link = new URL(publication.downloadUrl);
      return callRoute(download.loader, makeRequest(link.pathname + link.search, auth), {
        id: publication.publicationId,
      });
    };
    const kit = await downloaded(byId.opensea, { cookie: alice.cookie });
    expect(kit.status).toBe(200);
    expect(kit.headers.get("Content-Type")).toBe("application/zip");
    expect(kit.headers.get("Content-Disposition")).toBe(
      'attachment; filename="anime-ada-opensea-mint-kit.zip"',
    );
    const kitEntries = readZip(Buffer.from(await kit.arrayBuffer()));
    const metadata = JSON.parse(
      kitEntries.find((entry) => entry.name === "metadata.json")!.data.toString("utf8"),
    );
    expect(metadata).toMatchObject({ name: "Anime Ada", license: `${ORIGIN}/license` });
    // The kit links to the marketplace listing when the image was listed by the time the kit was made
    // (the jobs of one launch run side by side), else to the app.
    expect([byId.marketplace.url, ORIGIN]).toContain(metadata.external_url);
    expect(metadata.properties.creator_address).toBe(WALLET);
    expect(kitEntries.map((entry) => entry.name)).toContain("image.jpg");
    // The image link inside the metadata works.
    const kitImage = new URL(metadata.image);
    const kitImageAnswer = await callRoute(
      media.loader,
      makeRequest(kitImage.pathname + kitImage.search),
      {
        "*": kitImage.pathname.replace("/media/", ""),
      },
    );
    expect(kitImageAnswer.status).toBe(200);

    // EyeEm: an export package to download.
    expect(byId.eyeem.status).toBe("export_ready");
    const pack = await downloaded(byId.eyeem, { token: alice.token });
    expect(pack.status).toBe(200);
    expect(readZip(Buffer.from(await pack.arrayBuffer())).map((entry) => entry.name)).toEqual([
      "anime-ada.jpg",
      "metadata.csv",
      "README.txt",
    ]);

    // Downloads are the owner's only, through a valid signature.
    const bob = await createTestUser();
    const asBob = await downloaded(byId.opensea, { cookie: bob.cookie });
    expect(asBob.status).toBe(404);
    const signedOut = await downloaded(byId.opensea);
    expect(signedOut.status).toBe(401);
    const kitUrl = new URL(byId.opensea.downloadUrl);
    const tampered = await callRoute(
      download.loader,
      makeRequest(`${kitUrl.pathname}?exp=${kitUrl.searchParams.get("exp")}&sig=AAAA`, {
        cookie: alice.cookie,
      }),
      { id: byId.opensea.publicationId },
    );
    expect(tampered.status).toBe(403);

    // The state is kept: GET /api/publications answers the same.
    const state = await callRoute(
      publications.loader,
      makeRequest(`/api/publications?imageId=${image.id}`, { token: alice.token }),
    );
    expect(
      (await state.json()).platforms.map((p: { id: string; status: string }) => [p.id, p.status]),
    ).toEqual([
      ["marketplace", "live"],
      ["opensea", "ready_to_mint"],
      ["eyeem", "export_ready"],
      ["shopify", "live"],
    ]);

    // A kit made once the image is listed links to its listing.
    const relaunch = await callRoute(
      launch.action,
      makeRequest("/api/marketplace/launch", {
        token: alice.token,
        json: { imageId: image.id, title: "Anime Ada", price: 50, platforms: ["opensea"] },
      }),
    );
    const rekit = new URL((await relaunch.json()).platforms[0].downloadUrl);
    const rekitAnswer = await callRoute(
      download.loader,
      makeRequest(rekit.pathname + rekit.search, { cookie: alice.cookie }),
      {
        id: byId.opensea.publicationId,
      },
    );
    const remetadata = JSON.parse(
      readZip(Buffer.from(await rekitAnswer.arrayBuffer()))[0].data.toString("utf8"),
    );
    expect(remetadata.external_url).toBe(byId.marketplace.url);

    // Launching again updates the same Shopify product rather than making another.
    const again = await callRoute(
      launch.action,
      makeRequest("/api/marketplace/launch", {
        token: alice.token,
        json: { imageId: image.id, title: "Anime Ada II", price: 35, platforms: ["shopify"] },
      }),
    );
    expect((await again.json()).platforms[0]).toMatchObject({ id: "shopify", status: "live" });
    expect(shopifyMock.products.size).toBe(1);
    expect([...shopifyMock.products.values()][0]).toMatchObject({
      title: "Anime Ada II",
      price: "35.00",
    });
  });

  it("answers needs_auth (not live) when Shopify refuses the token with 401, and marks the connection for reconnecting", async () => {
    const alice = await creatorWithShopify();
    const image = await createStylizedImage(alice.user.id);
    // The merchant uninstalled the app: the access token and the refresh token both stop working.
    shopifyMock.tokens.clear();
    shopifyMock.refreshTokens.clear();

    const response = await postAs(alice.token, {
      imageId: image.id,
      platforms: ["shopify", "marketplace"],
      title: "Anime Style Selfie",
      description: "",
      price: 12.5,
    });
    expect(response.status).toBe(200);
    const { results } = await response.json();
    expect(results[0]).toMatchObject({ success: false, platform: "shopify", status: "needs_auth" });
    expect(results[0].error).toMatch(/connect Shopify again/);
    // With the shop known, the auth URL goes straight to Shopify.
    expect(new URL(results[0].authUrl).origin).toBe(`https://${SHOP}`);
    expect(results[1]).toMatchObject({ success: true, platform: "marketplace", status: "live" });
    expect(results[0].url).toBeUndefined();
    const row = await rowWhere("integrations", "*", "user_id", alice.user.id);
    expect(row.is_active).toBe(0);
    const list = await callRoute(
      tokenIntegrations.loader,
      makeRequest("/api/token-marketplace-integrations", { token: alice.token }),
    );
    expect(await list.json()).toContainEqual({ platform: "shopify", isActive: false });
  });

  it("fails honestly when the store has no Online Store channel (after retries), never claiming live", async () => {
    const alice = await creatorWithShopify();
    shopifyMock.noOnlineStore = true;
    const { results } = await postNewImageToShopify(alice);
    expect(results[0]).toMatchObject({ success: false, status: "failed" });
    expect(results[0].error).toMatch(/no Online Store/);
  });

  it("counts the product as published once publishablePublish succeeded, without waiting for a storefront URL", async () => {
    const alice = await creatorWithShopify();
    shopifyMock.withholdStorefrontUrl = true;
    const { results } = await postNewImageToShopify(alice);
    const [product] = [...shopifyMock.products.values()];
    // No onlineStoreUrl: the address is the primary domain and the product's handle; asked once, no retries.
    expect(results[0]).toMatchObject({
      success: true,
      status: "live",
      url: `https://${SHOP}/products/${product.handle}`,
    });
    expect(
      shopifyMock.graphql.filter((call) => call.operation === "SelfieStudioProductState"),
    ).toHaveLength(1);
    expect(shopifyMock.products.size).toBe(1);
  });

  it("answers success:false with an authUrl for a platform that is not connected, and refuses closed platforms", async () => {
    const alice = await createTestUser();
    const image = await createStylizedImage(alice.user.id);
    const response = await postAs(alice.token, {
      imageId: image.id,
      platforms: ["rarible", "foundation", "foap"],
      title: "Anime Style Selfie",
      price: 20,
    });
    const { results } = await response.json();
    expect(results).toEqual([
      {
        success: false,
        platform: "rarible",
        name: "Rarible",
        status: "needs_auth",
        authUrl: `${ORIGIN}/integrations?connect=rarible#rarible`,
        error: "Connect Rarible first.",
      },
      {
        success: false,
        platform: "foundation",
        name: "Foundation",
        status: "failed",
        error: expect.stringMatching(/no longer takes listings/),
      },
      {
        success: true,
        platform: "foap",
        name: "Foap",
        status: "export_ready",
        url: expect.stringContaining("/api/publications/"),
      },
    ]);
  });

  it("validates input: 400 without a title or platforms, an unknown platform, a bad price; 404 for someone else's image", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const image = await createStylizedImage(alice.user.id);
    const pending = await createStylizedImage(alice.user.id, { status: "processing" });
    const launchWith = (json: unknown, token = alice.token) =>
      callRoute(launch.action, makeRequest("/api/marketplace/launch", { token, json }));

    const noTitle = await launchWith({
      imageId: image.id,
      price: 10,
      title: " ",
      platforms: ["marketplace"],
    });
    expect(noTitle.status).toBe(400);
    expect((await noTitle.json()).fieldErrors.title).toEqual([
      "Please add a title for your content",
    ]);
    const noPlatforms = await launchWith({
      imageId: image.id,
      price: 10,
      title: "T",
      platforms: [],
    });
    expect(noPlatforms.status).toBe(400);
    expect((await noPlatforms.json()).fieldErrors.platforms).toEqual([
      "Choose at least one platform to launch on",
    ]);
    expect((await launchWith({ imageId: image.id, price: 10, title: "T" })).status).toBe(400);
    expect(
      (await launchWith({ imageId: image.id, price: 10, title: "T", platforms: ["myspace"] }))
        .status,
    ).toBe(400);
    expect(
      (await launchWith({ imageId: image.id, title: "T", platforms: "marketplace", price: -3 }))
        .status,
    ).toBe(400);
    expect(
      (
        await launchWith(
          { imageId: image.id, price: 10, title: "T", platforms: ["marketplace"] },
          bob.token,
        )
      ).status,
    ).toBe(404);
    expect(
      (await launchWith({ imageId: pending.id, price: 10, title: "T", platforms: ["marketplace"] }))
        .status,
    ).toBe(400);

    const postWith = (json: unknown) => postAs(alice.token, json);
    const noPrice = await postWith({
      imageId: image.id,
      title: "T",
      platforms: ["marketplace"],
      price: 0,
    });
    expect(noPrice.status).toBe(400);
    expect((await noPrice.json()).fieldErrors.price).toEqual([
      "Enter a price between $0.01 and $10,000.00.",
    ]);
    const none = await postWith({ imageId: image.id, title: "T", platforms: [], price: 5 });
    expect((await none.json()).fieldErrors.platforms).toEqual([
      "Please select at least one platform",
    ]);
    expect(
      (await callRoute(launch.action, makeRequest("/api/marketplace/launch", { json: {} }))).status,
    ).toBe(401);
  });

  it("never keeps saying live once the creator takes the marketplace listing down", async () => {
    const alice = await createTestUser();
    const image = await createStylizedImage(alice.user.id);
    const launched = await (
      await callRoute(
        launch.action,
        makeRequest("/api/marketplace/launch", {
          token: alice.token,
          json: { imageId: image.id, title: "T", price: 25, platforms: ["marketplace"] },
        }),
      )
    ).json();
    expect(launched.platforms[0].status).toBe("live");
    const listing = await rowWhere("listings", "*", "stylized_image_id", image.id);
    await withdrawListing(getDb(), {
      userId: alice.user.id,
      listingId: listing.id,
      now: new Date(),
    });
    const state = await (
      await callRoute(
        publications.loader,
        makeRequest(`/api/publications?imageId=${image.id}`, { token: alice.token }),
      )
    ).json();
    expect(state.platforms[0]).toMatchObject({ id: "marketplace", status: "withdrawn", url: null });
  });

  it("launches only at a price the creator typed: 0, empty, text or none is refused with 'Enter a price between $0.01 and $10,000.00.', changing nothing", async () => {
    const alice = await createTestUser();
    const image = await createStylizedImage(alice.user.id);
    const launchAt = (price: unknown) =>
      callRoute(
        launch.action,
        makeRequest("/api/marketplace/launch", {
          token: alice.token,
          json: {
            imageId: image.id,
            title: "T",
            platforms: ["marketplace"],
            ...(price === undefined ? {} : { price }),
          },
        }),
      );
    for (const price of [0, "0", "", "abc", undefined, -1, "0.001"]) {
      const refused = await launchAt(price);
      expect(refused.status, String(price)).toBe(400);
      expect((await refused.json()).fieldErrors.price).toEqual([
        "Enter a price between $0.01 and $10,000.00.",
      ]);
    }
    expect(await rowsWhere("listings", "stylized_image_id", image.id)).toEqual([]);

    // A typed price is stored rounded to cents, and the answer shows the stored price.
    const body = await (await launchAt("12.345")).json();
    expect(body.price).toBe("12.35");
    const listing = await rowWhere("listings", "price_cents", "stylized_image_id", image.id);
    expect(listing.price_cents).toBe(1235);
  });
});
