import crypto from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { forgetShopifyConnections, shopifyWebhookRequest } from "#tests/setup/shopify";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { newId } from "~/infra/ids.server";
import { saveOAuthIntegration } from "~/features/publishing/integrations/integrations.server";
import {
  NO_CUSTOMER_DATA,
  UNINSTALL_BEFORE_RECONNECT,
} from "~/features/publishing/shopify/shopify-webhooks.server";
import { callRoute } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { rowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";

const webhook = apiRoute("/api/webhooks/shopify");

/**
 * POST /api/webhooks/shopify with real signatures: each body is signed as
 * Shopify signs it (base64 HMAC-SHA256 of the raw bytes under the app's
 * client secret, here a test secret), and the route checks exactly that.
 */

const SECRET = `shpss_${crypto.randomBytes(16).toString("hex")}`;
const SHOP = "hook-store.myshopify.com";

/** A fresh Shopify id: each test's bodies differ, as a body once acted on is recognised by its hash. */
const uniqueId = () => crypto.randomInt(1, 2 ** 47);

const sign = (body: string | Buffer, secret = SECRET) =>
  crypto.createHmac("sha256", secret).update(body).digest("base64");

function deliver(topic: string, body: string, headers: Record<string, string | null> = {}) {
  // Shopify's servers send no Origin or cookies: the route needs no same-origin exemption beyond that.
  return callRoute(
    webhook.action,
    shopifyWebhookRequest(body, { topic, shop: SHOP, secret: SECRET, headers }),
  );
}

let restoreSecret: string | undefined;
beforeAll(() => {
  restoreSecret = getConfig().SHOPIFY_CLIENT_SECRET;
  getConfig().SHOPIFY_CLIENT_SECRET = SECRET;
  return () => {
    getConfig().SHOPIFY_CLIENT_SECRET = restoreSecret;
  };
});
afterEach(async () => {
  getConfig().SHOPIFY_CLIENT_SECRET = SECRET;
  await forgetShopifyConnections();
});

/** A creator connected to `shop`, with one live product there and one on another store. */
async function connectedCreator(shop = SHOP) {
  const creator = await createTestUser();
  const db = getDb();
  await saveOAuthIntegration(db, {
    userId: creator.user.id,
    platform: "shopify",
    accessToken: `shpat_${crypto.randomBytes(8).toString("hex")}`,
    refreshToken: `shprt_${crypto.randomBytes(8).toString("hex")}`,
    expiresAt: new Date(Date.now() + 3600_000),
    refreshTokenExpiresAt: new Date(Date.now() + 86400_000),
    scopes: ["write_products"],
    shopDomain: shop,
    now: new Date(),
  });
  const image = await createStylizedImage(creator.user.id);
  const other = await createStylizedImage(creator.user.id);
  const now = new Date().toISOString();
  const row = (imageId: string, externalShop: string) => ({
    id: newId(),
    user_id: creator.user.id,
    stylized_image_id: imageId,
    platform: "shopify",
    status: "live" as const,
    url: `https://${externalShop}/products/x`,
    title: "T",
    price_cents: 500,
    external_id: `gid://shopify/Product/${crypto.randomInt(1e6)}`,
    external_shop: externalShop,
    created_at: now,
    updated_at: now,
  });
  const here = row(image.id, shop);
  const elsewhere = row(other.id, "other-store.myshopify.com");
  await db.insertInto("listing_platforms").values([here, elsewhere]).execute();
  return { creator, here, elsewhere };
}

const integrationOf = (userId: string) =>
  getDb()
    .selectFrom("integrations")
    .selectAll()
    .where("user_id", "=", userId)
    .where("platform", "=", "shopify")
    .executeTakeFirst();
const publicationRow = (id: string) => rowWhere("listing_platforms", "*", "id", id);

describe("Shopify webhooks", () => {
  it("app/uninstalled: deletes that store's credentials and cuts its product links (and only those)", async () => {
    const { creator, here, elsewhere } = await connectedCreator();
    const bystander = await connectedCreator("bystander.myshopify.com");
    const body = JSON.stringify({
      id: 548380009,
      name: "Hook Store",
      myshopify_domain: SHOP,
      domain: "hook.example.com",
    });
    const response = await deliver("app/uninstalled", body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      received: true,
      outcome: "Removed 1 connection and 1 product link.",
    });

    expect(await integrationOf(creator.user.id)).toBeUndefined();
    const cut = await publicationRow(here.id);
    expect(cut).toMatchObject({
      status: "needs_auth",
      url: null,
      external_id: null,
      external_shop: null,
      revision: 2,
    });
    expect(cut.last_error).toMatch(/removed from this Shopify store/);
    // Another store's product link and another store's connection stay.
    expect(await publicationRow(elsewhere.id)).toMatchObject({
      status: "live",
      external_shop: "other-store.myshopify.com",
    });
    expect(await integrationOf(bystander.creator.user.id)).toBeDefined();

    const receipt = await rowsWhere("shopify_webhook_receipts", "shop_domain", SHOP);
    expect(receipt.map((r) => r.topic)).toEqual(["app/uninstalled"]);
  });

  it("shop/redact: the same removal; a redelivery (same webhook id) is answered without acting twice", async () => {
    const { creator, here } = await connectedCreator();
    const body = JSON.stringify({ shop_id: uniqueId(), shop_domain: SHOP });
    const id = crypto.randomUUID();
    const first = await deliver("shop/redact", body, { "X-Shopify-Webhook-Id": id });
    expect(first.status).toBe(200);
    expect(await integrationOf(creator.user.id)).toBeUndefined();
    expect(await publicationRow(here.id)).toMatchObject({
      status: "needs_auth",
      external_id: null,
    });
    const again = await deliver("shop/redact", body, { "X-Shopify-Webhook-Id": id });
    expect(again.status).toBe(200);
    expect((await again.json()).outcome).toBe("Removed 1 connection and 1 product link.");
    expect(await publicationRow(here.id)).toMatchObject({ revision: 2 });
  });

  it("customers/data_request and customers/redact: 200, recorded, answering that no customer data is held", async () => {
    const { creator } = await connectedCreator();
    for (const [topic, payload] of [
      [
        "customers/data_request",
        {
          shop_id: 954889,
          shop_domain: SHOP,
          orders_requested: [299938, 280263],
          customer: { id: 191167, email: "john@example.com", phone: "555-625-1199" },
          data_request: { id: 9999 },
        },
      ],
      [
        "customers/redact",
        {
          shop_id: 954889,
          shop_domain: SHOP,
          customer: { id: 191167, email: "john@example.com", phone: "555-625-1199" },
          orders_to_redact: [299938],
        },
      ],
    ] as const) {
      const response = await deliver(topic, JSON.stringify(payload));
      expect(response.status, topic).toBe(200);
      expect(await response.json()).toEqual({ received: true, outcome: NO_CUSTOMER_DATA });
    }
    // Nothing of the creator's connection was touched.
    expect(await integrationOf(creator.user.id)).toMatchObject({ is_active: 1 });
    const topics = await selectWhere(
      "shopify_webhook_receipts",
      "topic",
      "shop_domain",
      SHOP,
      "topic",
    );
    expect(topics.map((r) => r.topic)).toEqual(
      expect.arrayContaining(["customers/data_request", "customers/redact"]),
    );
    // The stored record holds no customer's details.
    const all = JSON.stringify(
      await getDb().selectFrom("shopify_webhook_receipts").selectAll().execute(),
    );
    expect(all).not.toContain("john@example.com");
  });

  it("401 for a tampered body, a missing or empty header, another secret's signature, or a hex signature; nothing acted on", async () => {
    const { creator, here } = await connectedCreator();
    for (const topic of [
      "app/uninstalled",
      "customers/data_request",
      "customers/redact",
      "shop/redact",
    ]) {
      const body = JSON.stringify({ shop_domain: SHOP, myshopify_domain: SHOP });
      const tampered = body.replace("}", ',"x":1}');
      const cases: [string, Promise<Response>][] = [
        ["tampered body", deliver(topic, tampered, { "X-Shopify-Hmac-Sha256": sign(body) })],
        ["missing header", deliver(topic, body, { "X-Shopify-Hmac-Sha256": null })],
        ["empty header", deliver(topic, body, { "X-Shopify-Hmac-Sha256": "" })],
        [
          "other secret",
          deliver(topic, body, { "X-Shopify-Hmac-Sha256": sign(body, "shpss_other") }),
        ],
        [
          "hex digest",
          deliver(topic, body, {
            "X-Shopify-Hmac-Sha256": crypto.createHmac("sha256", SECRET).update(body).digest("hex"),
          }),
        ],
        ["huge header", deliver(topic, body, { "X-Shopify-Hmac-Sha256": "A".repeat(50_000) })],
      ];
      for (const [name, pending] of cases) {
        const response = await pending;
        expect(response.status, `${topic}: ${name}`).toBe(401);
        expect((await response.json()).message).toBe("Invalid webhook signature");
      }
    }
    expect(await integrationOf(creator.user.id)).toBeDefined();
    expect(await publicationRow(here.id)).toMatchObject({ status: "live" });
  });

  it("signed but not a JSON object: 400, never 500; an unsubscribed topic is acknowledged and ignored; unconfigured: 404", async () => {
    for (const body of ["not json", "", "null", "[1,2]", '{"a":' + "[".repeat(1000)]) {
      const response = await deliver("app/uninstalled", body);
      expect(response.status, JSON.stringify(body.slice(0, 20))).toBe(400);
    }
    const noShop = await deliver("app/uninstalled", JSON.stringify({ id: 1 }), {
      "X-Shopify-Shop-Domain": null,
    });
    expect(noShop.status).toBe(400);
    const other = await deliver("orders/create", JSON.stringify({ id: 1 }));
    expect(other.status).toBe(200);
    expect(await other.json()).toEqual({ received: true, outcome: "ignored" });
    getConfig().SHOPIFY_CLIENT_SECRET = undefined;
    expect((await deliver("app/uninstalled", "{}")).status).toBe(404);
  });

  it("checks the raw bytes: the same JSON re-serialised (other spacing) does not pass", async () => {
    const { creator } = await connectedCreator();
    const body = JSON.stringify({ shop_id: uniqueId(), shop_domain: SHOP }, null, 2);
    const compact = JSON.stringify(JSON.parse(body));
    expect(
      (await deliver("shop/redact", compact, { "X-Shopify-Hmac-Sha256": sign(body) })).status,
    ).toBe(401);
    expect((await deliver("shop/redact", body)).status).toBe(200);
    expect(await integrationOf(creator.user.id)).toBeUndefined();
  });

  it("takes the store from the signed body: a header naming another store is refused (400) and nothing is acted on", async () => {
    const { creator, here } = await connectedCreator();
    const victim = await connectedCreator("victim-store.myshopify.com");
    const body = JSON.stringify({ id: uniqueId(), name: "Hook Store", myshopify_domain: SHOP });
    const forged = await deliver("app/uninstalled", body, {
      "X-Shopify-Shop-Domain": "victim-store.myshopify.com",
    });
    expect(forged.status).toBe(400);
    expect((await forged.json()).message).toBe(
      "X-Shopify-Shop-Domain does not name the store in the signed body",
    );
    expect(await integrationOf(victim.creator.user.id)).toBeDefined();
    expect(await publicationRow(victim.here.id)).toMatchObject({ status: "live" });
    expect(await integrationOf(creator.user.id)).toBeDefined();
    expect(await publicationRow(here.id)).toMatchObject({ status: "live" });
    // Without the header, the body's store is the one acted on.
    const plain = await deliver("app/uninstalled", body, { "X-Shopify-Shop-Domain": null });
    expect(plain.status).toBe(200);
    expect(await integrationOf(creator.user.id)).toBeUndefined();
    expect(await integrationOf(victim.creator.user.id)).toBeDefined();
  });

  it("a signed body of one topic replayed under another topic is refused (400): the body must have its topic's shape", async () => {
    const { creator, here } = await connectedCreator();
    const compliance = { shop_id: uniqueId(), shop_domain: SHOP };
    const customer = { id: 191167, email: "john@example.com", phone: "555-625-1199" };
    const bodies = {
      "customers/redact": { ...compliance, customer, orders_to_redact: [299938] },
      "customers/data_request": {
        ...compliance,
        customer,
        orders_requested: [299938],
        data_request: { id: 9999 },
      },
      "shop/redact": compliance,
      "app/uninstalled": { id: uniqueId(), name: "Hook Store", myshopify_domain: SHOP },
    };
    const destructive = ["app/uninstalled", "shop/redact"];
    for (const [signedAs, payload] of Object.entries(bodies)) {
      for (const topic of destructive) {
        if (topic === signedAs) continue;
        const response = await deliver(topic, JSON.stringify(payload));
        expect(response.status, `${signedAs} as ${topic}`).toBe(400);
        expect((await response.json()).message).toBe(
          `The body is not a ${topic} payload from Shopify`,
        );
      }
    }
    // Shapes that are not Shopify's for the topic: no store, a store that is not myshopify.com, a customer without id.
    for (const [topic, payload] of [
      ["shop/redact", { shop_id: 1 }],
      ["shop/redact", { shop_id: 1, shop_domain: "hook.example.com" }],
      ["app/uninstalled", { id: 1, domain: SHOP }],
      ["customers/redact", { ...compliance, customer: {}, orders_to_redact: [] }],
    ] as const) {
      expect((await deliver(topic, JSON.stringify(payload))).status, JSON.stringify(payload)).toBe(
        400,
      );
    }
    expect(await integrationOf(creator.user.id)).toBeDefined();
    expect(await publicationRow(here.id)).toMatchObject({ status: "live" });
  });

  it("a delivery hours late is acted on (Shopify retries for 4 hours with the original trigger time); no or a garbled X-Shopify-Triggered-At is a 400", async () => {
    const { creator, here } = await connectedCreator();
    const body = JSON.stringify({ shop_id: uniqueId(), shop_domain: SHOP });
    for (const triggeredAt of [null, "", "yesterday"]) {
      const response = await deliver("shop/redact", body, {
        "X-Shopify-Triggered-At": triggeredAt,
      });
      expect(response.status, String(triggeredAt)).toBe(400);
    }
    expect(await integrationOf(creator.user.id)).toBeDefined();
    // Two hours late, in Shopify's own form (nanoseconds).
    const late = new Date(Date.now() - 2 * 3600_000).toISOString().replace(/Z$/, "123456Z");
    const response = await deliver("shop/redact", body, { "X-Shopify-Triggered-At": late });
    expect(response.status).toBe(200);
    expect((await response.json()).outcome).toMatch(
      /^Removed 1 connection and \d+ product links?\.$/,
    );
    expect(await integrationOf(creator.user.id)).toBeUndefined();
    expect(await publicationRow(here.id)).toMatchObject({ status: "needs_auth" });
  });

  it("a late retry of a delivery already acted on (same webhook id) is not acted on twice", async () => {
    const first = await connectedCreator();
    const body = JSON.stringify({ shop_id: uniqueId(), shop_domain: SHOP });
    const id = crypto.randomUUID();
    const triggeredAt = new Date(Date.now() - 3 * 3600_000).toISOString();
    const headers = { "X-Shopify-Webhook-Id": id, "X-Shopify-Triggered-At": triggeredAt };
    expect((await deliver("shop/redact", body, headers)).status).toBe(200);
    expect(await integrationOf(first.creator.user.id)).toBeUndefined();
    // The store is connected again; Shopify's retry of the same webhook (a day late) changes nothing.
    const again = await connectedCreator();
    const retry = await deliver("shop/redact", body, {
      ...headers,
      "X-Shopify-Triggered-At": new Date(Date.now() - 26 * 3600_000).toISOString(),
    });
    expect(retry.status).toBe(200);
    expect(await integrationOf(again.creator.user.id)).toBeDefined();
    expect(await publicationRow(again.here.id)).toMatchObject({ status: "live" });
    const receipts = await selectWhere("shopify_webhook_receipts", "webhook_id", "webhook_id", id);
    expect(receipts).toHaveLength(1);
  });

  it("app/uninstalled triggered before the store's current connection was made is recorded and ignored; one triggered after it disconnects, however late", async () => {
    const { creator, here } = await connectedCreator();
    const connectedAt = (await integrationOf(creator.user.id))!.connected_at!;
    // Triggered a minute before this connection (the uninstall before a reinstall), delivered now.
    const before = new Date(new Date(connectedAt).getTime() - 60_000).toISOString();
    const stale = await deliver(
      "app/uninstalled",
      JSON.stringify({ id: uniqueId(), name: "Hook Store", myshopify_domain: SHOP }),
      { "X-Shopify-Triggered-At": before },
    );
    expect(stale.status).toBe(200);
    expect(await stale.json()).toEqual({ received: true, outcome: UNINSTALL_BEFORE_RECONNECT });
    expect(await integrationOf(creator.user.id)).toMatchObject({ is_active: 1 });
    expect(await publicationRow(here.id)).toMatchObject({ status: "live" });

    // A connection made three hours ago, uninstalled two hours ago, the delivery arriving only now.
    await forgetShopifyConnections();
    const later = await connectedCreator();
    await getDb()
      .updateTable("integrations")
      .set({ connected_at: new Date(Date.now() - 3 * 3600_000).toISOString() })
      .where("user_id", "=", later.creator.user.id)
      .execute();
    const after = await deliver(
      "app/uninstalled",
      JSON.stringify({ id: uniqueId(), name: "Hook Store", myshopify_domain: SHOP }),
      { "X-Shopify-Triggered-At": new Date(Date.now() - 2 * 3600_000).toISOString() },
    );
    expect(after.status).toBe(200);
    expect((await after.json()).outcome).toMatch(/^Removed 1 connection and \d+ product links?\.$/);
    expect(await integrationOf(later.creator.user.id)).toBeUndefined();
    expect(await publicationRow(later.here.id)).toMatchObject({ status: "needs_auth" });
  });

  it("a body already acted on is not acted on again under a new webhook id", async () => {
    const { creator } = await connectedCreator();
    const body = JSON.stringify({ id: uniqueId(), name: "Hook Store", myshopify_domain: SHOP });
    expect((await deliver("app/uninstalled", body)).status).toBe(200);
    expect(await integrationOf(creator.user.id)).toBeUndefined();
    // The store installs the app again; the old uninstall body comes back with a fresh id.
    const again = await connectedCreator();
    const replay = await deliver("app/uninstalled", body, {
      "X-Shopify-Webhook-Id": crypto.randomUUID(),
    });
    expect(replay.status).toBe(200);
    expect(await integrationOf(again.creator.user.id)).toBeDefined();
    expect(await publicationRow(again.here.id)).toMatchObject({ status: "live" });
    // Also without any webhook id.
    const bare = await deliver("app/uninstalled", body, { "X-Shopify-Webhook-Id": null });
    expect(bare.status).toBe(200);
    expect(await integrationOf(again.creator.user.id)).toBeDefined();
  });
});
