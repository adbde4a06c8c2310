import "@shopify/shopify-api/adapters/web-api";
import crypto from "node:crypto";
import { ApiVersion, LogSeverity, shopifyApi } from "@shopify/shopify-api";
import { getHmac } from "@shopify/shopify-api/test-helpers";
import { describe, expect, it } from "vitest";
import { shopifyHmacMessage, verifyShopifyHmac } from "~/infra/shopify/shopify-oauth.server";
import { shopifyWebhookHmac, verifyShopifyWebhook } from "~/infra/shopify/shopify-webhooks.server";
import { signShopifyCallback } from "#tests/mocks/shopify";

/**
 * Our Shopify signature code against Shopify's own library
 * (`@shopify/shopify-api`, a dev dependency only): the OAuth callback's hex
 * HMAC over the sorted, form-encoded query, and the webhook's base64 HMAC over
 * the raw body. The test mock's callback signer is held to the same library,
 * so tests that pass against the mock pass against Shopify.
 */

const SECRET = "contract-secret-7f3a9c";
const shopify = shopifyApi({
  apiKey: "contract-client-id",
  apiSecretKey: SECRET,
  scopes: ["write_products", "write_publications"],
  hostName: "studio.example",
  apiVersion: ApiVersion.July26,
  isEmbeddedApp: false,
  logger: { level: LogSeverity.Error, log: async () => {} },
});

const now = () => String(Math.trunc(Date.now() / 1000));

/** Callback queries as Shopify sends them: the host is base64 (often with "=" padding), values may carry +, / and spaces. */
function realisticCallbacks(): Record<string, string>[] {
  const hosts = [
    "admin.shopify.com/store/test-shop",
    "admin.shopify.com/store/ab",
    "admin.shopify.com/store/my-store-123",
  ];
  return [
    ...hosts.map((host, index) => ({
      code: crypto.randomBytes(16).toString("hex"),
      host: Buffer.from(host).toString("base64"),
      shop: `shop-${index}.myshopify.com`,
      state: crypto.randomBytes(24).toString("base64url"),
      timestamp: now(),
    })),
    // State values with characters that must be encoded, and an extra parameter Shopify may add.
    {
      code: "c0de",
      shop: "odd.myshopify.com",
      state: "a+b/c=d e&f",
      timestamp: now(),
      embedded: "1",
    },
    {
      code: "c0de",
      host: "YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvdGVzdA==",
      id_token: "x.y.z",
      shop: "t.myshopify.com",
      state: "Ünïcode",
      timestamp: now(),
    },
  ];
}

describe("OAuth callback HMAC", () => {
  it("a query signed by the test mock is accepted by Shopify's library and by our check", async () => {
    for (const params of realisticCallbacks()) {
      const signed = signShopifyCallback(params, SECRET);
      const query = Object.fromEntries(signed.entries());
      expect(await shopify.utils.validateHmac(query), JSON.stringify(params)).toBe(true);
      expect(
        verifyShopifyHmac(new URLSearchParams(signed.toString()), SECRET),
        JSON.stringify(params),
      ).toBe(true);
    }
  });

  it("our message is exactly the one Shopify's library signs (so its valid signatures are ours too), and both refuse the same tampering", async () => {
    for (const params of realisticCallbacks()) {
      const libraryHmac = crypto
        .createHmac("sha256", SECRET)
        .update(shopifyHmacMessage(new URLSearchParams(params)))
        .digest("hex");
      const query = { ...params, hmac: libraryHmac };
      expect(await shopify.utils.validateHmac(query)).toBe(true);
      expect(verifyShopifyHmac(new URLSearchParams(query), SECRET)).toBe(true);

      const tampered = { ...query, shop: "evil.myshopify.com" };
      expect(await shopify.utils.validateHmac(tampered)).toBe(false);
      expect(verifyShopifyHmac(new URLSearchParams(tampered), SECRET)).toBe(false);
    }
    // Signing the raw, unencoded values (not what Shopify does) is refused by the library when a value needs encoding.
    const params = realisticCallbacks()[4];
    const raw = Object.keys(params)
      .sort()
      .map((key) => `${key}=${params[key as keyof typeof params]}`)
      .join("&");
    const wrong = crypto.createHmac("sha256", SECRET).update(raw).digest("hex");
    expect(await shopify.utils.validateHmac({ ...params, hmac: wrong })).toBe(false);
    expect(verifyShopifyHmac(new URLSearchParams({ ...params, hmac: wrong }), SECRET)).toBe(false);
  });
});

describe("webhook HMAC", () => {
  const bodies = [
    JSON.stringify({
      id: 1,
      domain: "test-shop.myshopify.com",
      myshopify_domain: "test-shop.myshopify.com",
    }),
    '{"shop_id":954889,"shop_domain":"test-shop.myshopify.com"}\n',
    JSON.stringify(
      {
        shop_id: 1,
        shop_domain: "ü.myshopify.com",
        customer: { id: 1, email: "a+b@example.com" },
        orders_to_redact: [1, 2],
      },
      null,
      2,
    ),
  ];

  async function libraryAccepts(body: string, hmac: string): Promise<boolean> {
    const request = new Request("https://studio.example/api/webhooks/shopify", {
      method: "POST",
      body,
      headers: {
        "X-Shopify-Hmac-Sha256": hmac,
        "X-Shopify-Topic": "app/uninstalled",
        "X-Shopify-API-Version": "2026-07",
        "X-Shopify-Shop-Domain": "test-shop.myshopify.com",
        "X-Shopify-Webhook-Id": crypto.randomUUID(),
        "X-Shopify-Event-Id": crypto.randomUUID(),
        "X-Shopify-Triggered-At": new Date().toISOString(),
      },
    });
    const result = await shopify.webhooks.validate({ rawBody: body, rawRequest: request });
    return result.valid;
  }

  it("our signature is the library's, and each accepts what the other signed", async () => {
    for (const body of bodies) {
      expect(shopifyWebhookHmac(body, SECRET)).toBe(getHmac(body, SECRET));
      expect(await libraryAccepts(body, shopifyWebhookHmac(body, SECRET))).toBe(true);
      expect(verifyShopifyWebhook(Buffer.from(body), getHmac(body, SECRET), SECRET)).toBe(true);
    }
  });

  it("both refuse a changed body, another secret's signature and a hex signature", async () => {
    for (const body of bodies) {
      const cases = [
        { body: body.replace("test-shop", "evil-shop"), hmac: getHmac(body, SECRET) },
        { body, hmac: getHmac(body, "another-secret") },
        { body, hmac: crypto.createHmac("sha256", SECRET).update(body).digest("hex") },
      ].filter((entry) => entry.body !== body || entry.hmac !== getHmac(body, SECRET));
      for (const entry of cases) {
        expect(await libraryAccepts(entry.body, entry.hmac)).toBe(false);
        expect(verifyShopifyWebhook(Buffer.from(entry.body), entry.hmac, SECRET)).toBe(false);
      }
    }
  });
});
