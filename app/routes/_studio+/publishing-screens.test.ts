import { getFileStore } from "~/infra/file-store.server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flashOf } from "#tests/setup/flash";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import {
  PUBLISH_JOB,
  publishJobHandler,
} from "~/features/publishing/publications/publishing-job.server";
import * as integrations from "~/routes/_studio+/integrations";
import * as launchPage from "~/routes/_studio+/studio.launch";
import * as listPage from "~/routes/_studio+/studio.list";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import { SHOPIFY_TEST_CLIENT_ID, SHOPIFY_TEST_CLIENT_SECRET } from "#tests/mocks/shopify";
import { testTies } from "#tests/setup/ties";
import { rowWhere, rowsWhere } from "#tests/setup/rows-where";

const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";
let worker: JobWorker;

beforeAll(() => {
  worker = new JobWorker({
    db: getDb(),
    handlers: { [PUBLISH_JOB]: publishJobHandler({ store: getFileStore(), ties: testTies }) },
    concurrency: 2,
    pollMs: 20,
    log: () => {},
  });
  worker.start();
});
afterAll(() => worker.stop());

describe("/integrations (signed in)", () => {
  it("lists every platform with its state, the own marketplace first", async () => {
    const { cookie } = await createTestUser();
    const response = await callRoute(integrations.loader, makeRequest("/integrations", { cookie }));
    const data = await response.json();
    expect(data.signedIn).toBe(true);
    expect(
      data.screen.platforms.map((p: { platform: string; isActive: boolean }) => [
        p.platform,
        p.isActive,
      ]),
    ).toEqual([
      ["marketplace", true],
      ["opensea", false],
      ["zora", false],
      ["foundation", false],
      ["foap", true],
      ["eyeem", true],
      ["clickasnap", true],
      ["rarible", false],
      ["mintable", false],
      ["shopify", false],
      ["adobestock", false],
    ]);
    expect(data.screen.shopifyOAuth).toBe(false);
    expect(data.screen.connectLinks).toEqual({});
    const signedOut = await callRoute(integrations.loader, makeRequest("/integrations"));
    expect(await signedOut.json()).toEqual({ signedIn: false });
  });

  it("saves a manual setup without JavaScript (post/redirect/get with 'Success'), and disconnects", async () => {
    const { user, cookie } = await createTestUser();
    const saved = await callRoute(
      integrations.action,
      formRequest(
        "/integrations",
        {
          intent: "manual",
          platform: "opensea",
          apiKey: "key-from-form-1234",
          walletAddress: WALLET,
        },
        { cookie },
      ),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/integrations#opensea");
    expect(await flashOf(saved)).toEqual({
      kind: "success",
      title: "Success",
      description: "Integration created successfully.",
    });
    const after = await (
      await callRoute(integrations.loader, makeRequest("/integrations", { cookie }))
    ).json();
    const opensea = after.screen.platforms.find(
      (p: { platform: string }) => p.platform === "opensea",
    );
    expect(opensea).toMatchObject({
      isActive: true,
      integration: { apiKeyLast4: "1234", walletAddress: WALLET, method: "apiKey" },
    });
    expect(JSON.stringify(after)).not.toContain("key-from-form-1234");

    const removed = await callRoute(
      integrations.action,
      formRequest("/integrations", { intent: "disconnect", platform: "opensea" }, { cookie }),
    );
    expect(removed.status).toBe(302);
    expect((await flashOf(removed))?.title).toBe("Disconnected");
    expect(await rowsWhere("integrations", "user_id", user.id)).toEqual([]);
  });

  it("answers the form's errors (400) without echoing the key, for missing fields and a malformed wallet", async () => {
    const { cookie } = await createTestUser();
    const response = await callRoute(
      integrations.action,
      formRequest(
        "/integrations",
        {
          intent: "manual",
          platform: "rarible",
          apiKey: "secret-typed-key-5678",
          walletAddress: "0xnothex",
        },
        { cookie },
      ),
    );
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).not.toContain("secret-typed-key-5678");
    const reply = JSON.parse(text);
    expect(reply.error.walletAddress).toEqual([
      "Please enter a valid wallet address (0x followed by 40 hexadecimal characters)",
    ]);
    expect(reply.initialValue.platform).toBe("rarible");

    const missing = await callRoute(
      integrations.action,
      formRequest("/integrations", { intent: "manual", platform: "mintable" }, { cookie }),
    );
    expect(missing.status).toBe(400);
    const missingReply = await missing.json();
    expect(missingReply.error.apiKey).toEqual(["Please enter your API key"]);
    expect(missingReply.error.walletAddress).toEqual(["Please enter your wallet address"]);

    const crossSite = await callRoute(
      integrations.action,
      formRequest(
        "/integrations",
        { intent: "manual", platform: "opensea", apiKey: "k", walletAddress: WALLET },
        { cookie, origin: "cross" },
      ),
    );
    expect(crossSite.status).toBe(403);
  });

  it("offers a plain link to Shopify for a store asked for with ?connect=shopify&shop= (Connect without JavaScript)", async () => {
    const { cookie } = await createTestUser();
    const config = getConfig();
    config.SHOPIFY_CLIENT_ID = SHOPIFY_TEST_CLIENT_ID;
    config.SHOPIFY_CLIENT_SECRET = SHOPIFY_TEST_CLIENT_SECRET;
    try {
      const data = await (
        await callRoute(
          integrations.loader,
          makeRequest("/integrations?connect=shopify&shop=my-store", { cookie }),
        )
      ).json();
      const link = new URL(data.screen.connectLinks.shopify);
      expect(link.origin).toBe("https://my-store.myshopify.com");
      expect(link.pathname).toBe("/admin/oauth/authorize");
      const state = await getDb()
        .selectFrom("oauth_states")
        .selectAll()
        .orderBy("created_at", "desc")
        .executeTakeFirstOrThrow();
      expect(state.display).toBe("page");
      const bad = await (
        await callRoute(
          integrations.loader,
          makeRequest("/integrations?connect=shopify&shop=evil.com", { cookie }),
        )
      ).json();
      expect(bad.screen.connectLinks).toEqual({});
      expect(bad.screen.shopError).toMatch(/myshopify\.com/);
    } finally {
      config.SHOPIFY_CLIENT_ID = undefined;
      config.SHOPIFY_CLIENT_SECRET = undefined;
    }
  });
});

describe("/studio/launch and /studio/list", () => {
  it("launch works without JavaScript: post, redirect to the result page with 'Marketing campaign launched!'", async () => {
    const { user, cookie } = await createTestUser();
    const image = await createStylizedImage(user.id, { style: "cartoon" });
    const form = await (
      await callRoute(
        launchPage.loader,
        makeRequest(`/studio/launch?image=${image.id}`, { cookie }),
      )
    ).json();
    expect(form.mode).toBe("form");
    expect(form.defaults).toMatchObject({ title: "Cartoon Style Selfie", ready: true });

    const body = new URLSearchParams([
      ["imageId", image.id],
      ["title", "Cartoon me"],
      ["description", ""],
      ["price", "25"],
      ["tags", "fun, , cartoon"],
      ["platforms", "marketplace"],
      ["platforms", "eyeem"],
      ["enableLicensing", "false"],
      ["enableLicensing", "true"],
      ["enableNFT", "false"],
    ]);
    const posted = await callRoute(
      launchPage.action,
      formRequest(`/studio/launch?image=${image.id}`, body, { cookie }),
    );
    expect(posted.status).toBe(302);
    const location = posted.headers.get("Location")!;
    expect(location).toBe(`/studio/launch?image=${image.id}&platforms=marketplace,eyeem`);
    expect(await flashOf(posted)).toEqual({
      kind: "success",
      title: "Marketing campaign launched!",
    });

    const result = await (
      await callRoute(launchPage.loader, makeRequest(location, { cookie }))
    ).json();
    expect(result.mode).toBe("result");
    expect(result.result).toMatchObject({
      platformsLaunched: 2,
      viewsGenerated: 300_000,
      price: "25",
      estimatedEarnings: 750,
    });
    expect(
      result.result.platforms.map((p: { id: string; status: string }) => [p.id, p.status]),
    ).toEqual([
      ["marketplace", "live"],
      ["eyeem", "export_ready"],
    ]);
    const listing = await rowWhere("listings", "*", "stylized_image_id", image.id);
    expect(JSON.parse(listing.tags)).toEqual(["fun", "cartoon"]);
    expect(listing.licensing_enabled).toBe(1);
    expect(listing.nft_enabled).toBe(0);
  });

  it("launch answers the form's errors (400) without JavaScript and JSON with it", async () => {
    const { user, cookie } = await createTestUser();
    const image = await createStylizedImage(user.id);
    const invalid = await callRoute(
      launchPage.action,
      formRequest(`/studio/launch?image=${image.id}`, { imageId: image.id, title: "" }, { cookie }),
    );
    expect(invalid.status).toBe(400);
    const reply = await invalid.json();
    expect(reply.error.title).toEqual(["Please add a title for your content"]);
    expect(reply.error.platforms).toEqual(["Choose at least one platform to launch on"]);

    const withJs = await callRoute(
      launchPage.action,
      formRequest(
        `/studio/launch?image=${image.id}`,
        { imageId: image.id, title: "T", price: "12.5", platforms: "marketplace", _js: "1" },
        { cookie },
      ),
    );
    expect(withJs.status).toBe(200);
    const json = await withJs.json();
    expect(json.ok).toBe(true);
    expect(json.result.price).toBe("12.50");
    expect(json.result.platforms[0]).toMatchObject({ id: "marketplace", status: "live" });
    // The form's price goes through both the form parse and the procedure's without being scaled twice.
    const listing = await rowWhere("listings", "*", "stylized_image_id", image.id);
    expect(listing.price_cents).toBe(1250);
  });

  it("without JavaScript: tags with a trailing comma launch; a refused post sends back what was typed, and the page shows the image", async () => {
    const { user, cookie } = await createTestUser();
    const image = await createStylizedImage(user.id, { style: "professional" });
    const form = await (
      await callRoute(
        launchPage.loader,
        makeRequest(`/studio/launch?image=${image.id}`, { cookie }),
      )
    ).json();
    expect(form.defaults.previewUrl).toMatch(/^\/media\/.+\?exp=\d+&sig=/);

    const refused = await callRoute(
      launchPage.action,
      formRequest(
        `/studio/launch?image=${image.id}`,
        {
          imageId: image.id,
          title: "",
          description: "Mine",
          price: "35",
          tags: "astronaut, portrait,",
          platforms: "marketplace",
        },
        { cookie },
      ),
    );
    expect(refused.status).toBe(400);
    const reply = await refused.json();
    expect(Object.keys(reply.error)).toEqual(["title"]);
    expect(reply.initialValue).toMatchObject({
      description: "Mine",
      tags: "astronaut, portrait,",
      platforms: "marketplace",
    });

    const posted = await callRoute(
      launchPage.action,
      formRequest(
        `/studio/launch?image=${image.id}`,
        {
          imageId: image.id,
          title: "Astronaut",
          price: "35",
          tags: "astronaut,, portrait,",
          platforms: "marketplace",
        },
        { cookie },
      ),
    );
    expect(posted.status).toBe(302);
    const listing = await rowWhere("listings", "*", "stylized_image_id", image.id);
    expect(JSON.parse(listing.tags)).toEqual(["astronaut", "portrait"]);
  });

  it("list for sale works without JavaScript: 'Marketplace Posting Complete' with the successes out of the total", async () => {
    const { user, cookie } = await createTestUser();
    const image = await createStylizedImage(user.id, { style: "fantasy", priceCents: 6000 });
    const page = await (
      await callRoute(listPage.loader, makeRequest(`/studio/list?image=${image.id}`, { cookie }))
    ).json();
    expect(page.defaults).toMatchObject({ title: "Fantasy Style Selfie", price: "60" });
    expect(
      page.defaults.platforms
        .filter((p: { connected: boolean }) => p.connected)
        .map((p: { id: string }) => p.id),
    ).toEqual(["marketplace", "foap", "eyeem", "clickasnap"]);

    const body = new URLSearchParams([
      ["imageId", image.id],
      ["title", "Fantasy Style Selfie"],
      ["description", "An AI-stylized selfie in the fantasy style."],
      ["price", "60"],
      ["platforms", "marketplace"],
      ["platforms", "opensea"],
    ]);
    const posted = await callRoute(
      listPage.action,
      formRequest(`/studio/list?image=${image.id}`, body, { cookie }),
    );
    expect(posted.status).toBe(302);
    expect(await flashOf(posted)).toEqual({
      kind: "success",
      title: "Marketplace Posting Complete",
      description: "Successfully posted to 1 of 2 platforms.",
    });
    const location = posted.headers.get("Location")!;
    const after = await (
      await callRoute(listPage.loader, makeRequest(location, { cookie }))
    ).json();
    expect(
      after.results.map((r: { id: string; status: string; authUrl: string | null }) => [
        r.id,
        r.status,
        r.authUrl,
      ]),
    ).toEqual([
      ["marketplace", "live", null],
      ["opensea", "needs_auth", "http://localhost:3000/integrations?connect=opensea#opensea"],
    ]);

    const noPrice = await callRoute(
      listPage.action,
      formRequest(
        `/studio/list?image=${image.id}`,
        { imageId: image.id, title: "T", price: "0", platforms: "marketplace" },
        { cookie },
      ),
    );
    expect(noPrice.status).toBe(400);
    expect((await noPrice.json()).error.price).toEqual([
      "Enter a price between $0.01 and $10,000.00.",
    ]);
    const noPlatform = await callRoute(
      listPage.action,
      formRequest(
        `/studio/list?image=${image.id}`,
        { imageId: image.id, title: "T", price: "5" },
        { cookie },
      ),
    );
    expect((await noPlatform.json()).error.platforms).toEqual([
      "Please select at least one platform",
    ]);
  });

  it("sends a signed-out visitor to sign in, and hides another creator's image", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const image = await createStylizedImage(alice.user.id);
    const signedOut = await callRoute(
      launchPage.loader,
      makeRequest(`/studio/launch?image=${image.id}`),
    );
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
    const notYours = await callRoute(
      listPage.loader,
      makeRequest(`/studio/list?image=${image.id}`, { cookie: bob.cookie }),
    );
    expect(notYours.status).toBe(404);
  });
});
