import crypto from "node:crypto";
import { http, HttpResponse } from "msw";

/**
 * A Shopify store for tests, at the HTTP boundary, written from Shopify's
 * documented behaviour:
 * - POST https://{shop}/admin/oauth/access_token: the code-for-token exchange
 *   (with `expiring: 1`, an expiring offline token: `expires_in` 3600, a
 *   `refresh_token` and `refresh_token_expires_in`), and the refresh grant
 *   (`grant_type: refresh_token`), which rotates the refresh token and answers
 *   400 `invalid_grant` for one it does not know (or already used);
 * - POST https://{shop}/admin/api/{version}/graphql.json: the Admin GraphQL
 *   operations the app sends (recognised by their operation names), with
 *   products, variants, media, publications (by catalog title), the shop's
 *   primary domain and its storefront password kept in memory.
 * A token the store does not know, or one past its expiry, answers 401, as
 * Shopify does. Shopify keeps one offline token per app and store: a new
 * token for the store (a code exchange, or the token exchange that turns a
 * non-expiring token into an expiring one) revokes every token and refresh
 * token the app held for it before; tokens of other apps (`acceptToken`, a
 * custom app's) are left alone. The token exchange
 * (`grant_type: urn:ietf:params:oauth:grant-type:token-exchange`, subject and
 * requested type `urn:shopify:params:oauth:token-type:offline-access-token`,
 * `expiring: "1"`) answers an expiring pair for a known non-expiring token,
 * and the same pair again when the original token is sent again (Shopify's
 * retry window), until the pair is refreshed or replaced. A password-protected storefront (a development store) answers
 * `onlineStoreUrl: null` for a published product, as Shopify does.
 */

export interface MockProduct {
  id: string;
  handle: string;
  title: string;
  descriptionHtml: string;
  tags: string[];
  status: string;
  variantId: string;
  price: string;
  media: { originalSource: string; mediaContentType: string; alt?: string }[];
  published: boolean;
  /** The default variant's inventory item (a new product's default requires shipping and is tracked). */
  requiresShipping: boolean;
  tracked: boolean;
}

export interface RecordedGraphql {
  shop: string;
  version: string;
  token: string | null;
  operation: string;
  variables: Record<string, unknown>;
}

export const SHOPIFY_TEST_CLIENT_ID = "test-client-id";
export const SHOPIFY_TEST_CLIENT_SECRET = "test-client-secret-0123456789";

export const shopifyMock = {
  /** Authorization codes the store will exchange: code -> { shop, token, scope }. */
  codes: new Map<string, { shop: string; token: string; scope: string }>(),
  /** Access tokens the store accepts: token -> shop. */
  tokens: new Map<string, string>(),
  products: new Map<string, MockProduct>(),
  graphql: [] as RecordedGraphql[],
  exchanges: [] as {
    shop: string;
    clientId: unknown;
    clientSecret: unknown;
    code: unknown;
    expiring: unknown;
  }[],
  /** Refresh grants asked for, in order: the refresh token sent and whether it was accepted. */
  refreshes: [] as { shop: string; refreshToken: unknown; accepted: boolean }[],
  /** Refresh tokens the store accepts: refresh token -> shop (each works once: it is rotated). */
  refreshTokens: new Map<string, string>(),
  /** When each expiring access token stops working (ms since epoch). */
  tokenExpiry: new Map<string, number>(),
  /** Tokens and refresh tokens this app was issued (a new one for the store revokes them): token -> shop. */
  appTokens: new Map<string, string>(),
  /** Tokens revoked because a newer one was issued for their store, in order. */
  revoked: [] as { shop: string; token: string }[],
  /** Token exchanges asked for (non-expiring -> expiring), in order. */
  migrations: [] as { shop: string; subjectToken: unknown; accepted: boolean }[],
  /** Non-expiring tokens already exchanged: original -> the pair answered (answered again on a retry). */
  migrated: new Map<string, Record<string, unknown>>(),
  /** The store's clock for token expiry. */
  now: () => Date.now(),
  accessTokenTtlSeconds: 3600,
  refreshTokenTtlSeconds: 90 * 24 * 3600,
  /** Milliseconds each refresh answer takes (to let concurrent refreshes overlap). */
  refreshDelayMs: 0,
  /** The storefront has a password (a development store): no onlineStoreUrl for anything. */
  passwordProtected: false,
  /** The shop's primary domain (its myshopify.com domain unless set). */
  primaryDomainHost: null as string | null,
  /** What Shopify's processing makes of new media. */
  mediaStatus: "READY" as "READY" | "PROCESSING" | "FAILED",
  /** The store has no Online Store channel (products cannot reach buyers). */
  noOnlineStore: false,
  /** Shopify never answers a storefront URL for the product (not confirmed as live). */
  withholdStorefrontUrl: false,
  nextId: 1000,
  reset() {
    this.codes.clear();
    this.tokens.clear();
    this.products.clear();
    this.graphql = [];
    this.exchanges = [];
    this.refreshes = [];
    this.refreshTokens.clear();
    this.tokenExpiry.clear();
    this.appTokens.clear();
    this.revoked = [];
    this.migrations = [];
    this.migrated.clear();
    this.now = () => Date.now();
    this.accessTokenTtlSeconds = 3600;
    this.refreshTokenTtlSeconds = 90 * 24 * 3600;
    this.refreshDelayMs = 0;
    this.passwordProtected = false;
    this.primaryDomainHost = null;
    this.mediaStatus = "READY";
    this.noOnlineStore = false;
    this.withholdStorefrontUrl = false;
    this.nextId = 1000;
  },
  /** Makes a code the store will exchange for `token`. */
  issueCode(
    shop: string,
    token = `shpat_${crypto.randomBytes(16).toString("hex")}`,
    scope = "write_products,write_publications",
  ) {
    const code = crypto.randomBytes(16).toString("hex");
    this.codes.set(code, { shop, token, scope });
    return { code, token };
  },
  /** A token the store accepts that is not this app's (a custom app's), or `appIssued`: a non-expiring one this app got before expiring tokens. */
  acceptToken(shop: string, token: string, options: { appIssued?: boolean } = {}) {
    this.tokens.set(token, shop);
    if (options.appIssued) this.appTokens.set(token, shop);
  },
  /** A new token for the store: everything the app held for it before stops working, as on Shopify. */
  revokeAppTokens(shop: string) {
    for (const [token, owner] of this.appTokens) {
      if (owner !== shop) continue;
      this.appTokens.delete(token);
      if (this.tokens.delete(token)) this.revoked.push({ shop, token });
      this.tokenExpiry.delete(token);
    }
    for (const [refreshToken, owner] of this.refreshTokens)
      if (owner === shop) this.refreshTokens.delete(refreshToken);
    for (const [original, pair] of this.migrated)
      if (this.tokens.get(pair.access_token as string) === undefined)
        this.migrated.delete(original);
  },
  /** Issues an expiring access token and its refresh token, as an exchange or refresh does. */
  issueExpiring(shop: string, token = `shpat_${crypto.randomBytes(16).toString("hex")}`) {
    const refreshToken = `shprt_${crypto.randomBytes(16).toString("hex")}`;
    this.tokens.set(token, shop);
    this.appTokens.set(token, shop);
    this.tokenExpiry.set(token, this.now() + this.accessTokenTtlSeconds * 1000);
    this.refreshTokens.set(refreshToken, shop);
    return {
      access_token: token,
      expires_in: this.accessTokenTtlSeconds,
      refresh_token: refreshToken,
      refresh_token_expires_in: this.refreshTokenTtlSeconds,
    };
  },
};

/**
 * Signs a callback query as Shopify does: drop `hmac` (and `signature`), sort
 * the rest by name, encode them as a query string (form-encoded, as
 * `@shopify/shopify-api` does with URLSearchParams: a base64 `host` keeps its
 * `=` as `%3D`) and take the hex HMAC-SHA256 under the app's client secret.
 * tests/contracts/shopify-hmac.test.ts checks it against the library.
 */
export function signShopifyCallback(
  params: Record<string, string>,
  secret = SHOPIFY_TEST_CLIENT_SECRET,
): URLSearchParams {
  const message = new URLSearchParams(
    Object.keys(params)
      .filter((key) => key !== "hmac" && key !== "signature")
      .sort((a, b) => a.localeCompare(b))
      .map((key) => [key, params[key]]),
  ).toString();
  const hmac = crypto.createHmac("sha256", secret).update(message).digest("hex");
  return new URLSearchParams({ ...params, hmac });
}

function operationName(query: string): string {
  return /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? "anonymous";
}

function handleize(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "product"
  );
}

export const shopifyHandlers = [
  http.post("https://:shop/admin/oauth/access_token", async ({ request, params }) => {
    const shop = String(params.shop);
    const body = (await request.json()) as {
      client_id?: unknown;
      client_secret?: unknown;
      code?: unknown;
      expiring?: unknown;
      grant_type?: unknown;
      refresh_token?: unknown;
      subject_token?: unknown;
      subject_token_type?: unknown;
      requested_token_type?: unknown;
    };
    if (body.grant_type === "urn:ietf:params:oauth:grant-type:token-exchange") {
      const offline = "urn:shopify:params:oauth:token-type:offline-access-token";
      const app =
        body.client_id === SHOPIFY_TEST_CLIENT_ID &&
        body.client_secret === SHOPIFY_TEST_CLIENT_SECRET;
      const subject = typeof body.subject_token === "string" ? body.subject_token : "";
      const shapeOk =
        body.subject_token_type === offline &&
        body.requested_token_type === offline &&
        (body.expiring === "1" || body.expiring === 1);
      const earlier = shopifyMock.migrated.get(subject);
      const known =
        shopifyMock.appTokens.get(subject) === shop &&
        shopifyMock.tokens.get(subject) === shop &&
        !shopifyMock.tokenExpiry.has(subject);
      shopifyMock.migrations.push({
        shop,
        subjectToken: body.subject_token,
        accepted: app && shapeOk && (known || Boolean(earlier)),
      });
      if (!app || !shapeOk)
        return HttpResponse.json(
          { error: "invalid_request", error_description: "Invalid request" },
          { status: 400 },
        );
      if (earlier) return HttpResponse.json(earlier);
      if (!known) {
        return HttpResponse.json(
          { error: "invalid_subject_token", error_description: "The subject token is invalid." },
          { status: 400 },
        );
      }
      shopifyMock.revokeAppTokens(shop);
      const pair = {
        ...shopifyMock.issueExpiring(shop),
        scope: "write_products,write_publications",
      };
      shopifyMock.migrated.set(subject, pair);
      return HttpResponse.json(pair);
    }
    if (body.grant_type === "refresh_token") {
      if (shopifyMock.refreshDelayMs > 0)
        await new Promise((resolve) => setTimeout(resolve, shopifyMock.refreshDelayMs));
      const known =
        typeof body.refresh_token === "string" &&
        shopifyMock.refreshTokens.get(body.refresh_token) === shop;
      const app =
        body.client_id === SHOPIFY_TEST_CLIENT_ID &&
        body.client_secret === SHOPIFY_TEST_CLIENT_SECRET;
      shopifyMock.refreshes.push({
        shop,
        refreshToken: body.refresh_token,
        accepted: known && app,
      });
      if (!known || !app) {
        return HttpResponse.json(
          { error: "invalid_grant", error_description: "Token has been expired or revoked." },
          { status: 400 },
        );
      }
      // Rotated: the used refresh token works no more.
      shopifyMock.refreshTokens.delete(body.refresh_token as string);
      // A refreshed pair ends the token exchange's retry window.
      for (const [original, pair] of shopifyMock.migrated)
        if (pair.refresh_token === body.refresh_token) shopifyMock.migrated.delete(original);
      return HttpResponse.json({
        ...shopifyMock.issueExpiring(shop),
        scope: "write_products,write_publications",
      });
    }
    shopifyMock.exchanges.push({
      shop,
      clientId: body.client_id,
      clientSecret: body.client_secret,
      code: body.code,
      expiring: body.expiring,
    });
    const grant = typeof body.code === "string" ? shopifyMock.codes.get(body.code) : undefined;
    if (
      body.client_id !== SHOPIFY_TEST_CLIENT_ID ||
      body.client_secret !== SHOPIFY_TEST_CLIENT_SECRET ||
      !grant ||
      grant.shop !== shop
    ) {
      return HttpResponse.json(
        { error: "invalid_request", error_description: "Invalid code" },
        { status: 400 },
      );
    }
    shopifyMock.codes.delete(body.code as string);
    // One offline token per app and store: this one revokes the app's earlier ones.
    shopifyMock.revokeAppTokens(shop);
    if (body.expiring === 1 || body.expiring === "1") {
      return HttpResponse.json({
        ...shopifyMock.issueExpiring(shop, grant.token),
        scope: grant.scope,
      });
    }
    shopifyMock.tokens.set(grant.token, shop);
    shopifyMock.appTokens.set(grant.token, shop);
    return HttpResponse.json({ access_token: grant.token, scope: grant.scope });
  }),

  http.post("https://:shop/admin/api/:version/graphql.json", async ({ request, params }) => {
    const shop = String(params.shop);
    const token = request.headers.get("X-Shopify-Access-Token");
    const { query, variables = {} } = (await request.json()) as {
      query: string;
      variables?: Record<string, unknown>;
    };
    const operation = operationName(query);
    shopifyMock.graphql.push({
      shop,
      version: String(params.version),
      token,
      operation,
      variables,
    });
    const expiry = token ? shopifyMock.tokenExpiry.get(token) : undefined;
    if (
      !token ||
      shopifyMock.tokens.get(token) !== shop ||
      (expiry !== undefined && expiry <= shopifyMock.now())
    ) {
      return HttpResponse.json(
        { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" },
        { status: 401 },
      );
    }

    switch (operation) {
      case "SelfieStudioShop":
        return HttpResponse.json({ data: { shop: { name: "Test Store" } } });

      case "SelfieStudioProductCreate": {
        const input = variables.product as {
          title: string;
          descriptionHtml: string;
          tags: string[];
          status: string;
        };
        const media = (variables.media as MockProduct["media"]) ?? [];
        if (!input.title) {
          return HttpResponse.json({
            data: {
              productCreate: {
                product: null,
                userErrors: [{ field: ["title"], message: "Title can't be blank" }],
              },
            },
          });
        }
        const n = shopifyMock.nextId++;
        const product: MockProduct = {
          id: `gid://shopify/Product/${n}`,
          handle: `${handleize(input.title)}-${n}`,
          title: input.title,
          descriptionHtml: input.descriptionHtml,
          tags: input.tags,
          status: input.status,
          variantId: `gid://shopify/ProductVariant/${n}`,
          price: "0.00",
          media,
          published: false,
          requiresShipping: true,
          tracked: true,
        };
        shopifyMock.products.set(product.id, product);
        return HttpResponse.json({
          data: {
            productCreate: {
              product: {
                id: product.id,
                handle: product.handle,
                variants: { nodes: [{ id: product.variantId }] },
              },
              userErrors: [],
            },
          },
        });
      }

      case "SelfieStudioProductUpdate": {
        const input = variables.product as {
          id: string;
          title: string;
          descriptionHtml: string;
          tags: string[];
          status: string;
        };
        const product = shopifyMock.products.get(input.id);
        if (!product) {
          return HttpResponse.json({
            data: {
              productUpdate: {
                product: null,
                userErrors: [{ field: ["id"], message: "Product does not exist" }],
              },
            },
          });
        }
        Object.assign(product, {
          title: input.title,
          descriptionHtml: input.descriptionHtml,
          tags: input.tags,
          status: input.status,
        });
        product.media.push(...((variables.media as MockProduct["media"] | null) ?? []));
        return HttpResponse.json({
          data: {
            productUpdate: {
              product: {
                id: product.id,
                handle: product.handle,
                variants: { nodes: [{ id: product.variantId }] },
              },
              userErrors: [],
            },
          },
        });
      }

      case "SelfieStudioVariantPrice": {
        const product = shopifyMock.products.get(variables.productId as string);
        const [variant] = variables.variants as {
          id: string;
          price: string;
          inventoryItem?: { requiresShipping?: boolean; tracked?: boolean };
        }[];
        if (!product || variant.id !== product.variantId) {
          return HttpResponse.json({
            data: {
              productVariantsBulkUpdate: {
                productVariants: null,
                userErrors: [{ field: ["variants"], message: "Variant not found" }],
              },
            },
          });
        }
        product.price = variant.price;
        if (typeof variant.inventoryItem?.requiresShipping === "boolean")
          product.requiresShipping = variant.inventoryItem.requiresShipping;
        if (typeof variant.inventoryItem?.tracked === "boolean")
          product.tracked = variant.inventoryItem.tracked;
        return HttpResponse.json({
          data: {
            productVariantsBulkUpdate: {
              productVariants: [{ id: variant.id, price: variant.price }],
              userErrors: [],
            },
          },
        });
      }

      case "SelfieStudioPublications":
        return HttpResponse.json({
          data: {
            publications: {
              // Found by catalog title; the deprecated `name` is not answered.
              nodes: [
                { id: "gid://shopify/Publication/2", catalog: { title: "Point of Sale" } },
                ...(shopifyMock.noOnlineStore
                  ? []
                  : [{ id: "gid://shopify/Publication/1", catalog: { title: "Online Store" } }]),
              ],
            },
          },
        });

      case "SelfieStudioPublish": {
        const product = shopifyMock.products.get(variables.id as string);
        const [{ publicationId }] = variables.input as { publicationId: string }[];
        if (product && publicationId === "gid://shopify/Publication/1") product.published = true;
        return HttpResponse.json({
          data: {
            publishablePublish: {
              userErrors: product ? [] : [{ field: ["id"], message: "Not found" }],
            },
          },
        });
      }

      case "SelfieStudioProductState": {
        const product = shopifyMock.products.get(variables.id as string);
        const host = shopifyMock.primaryDomainHost ?? shop;
        const visible =
          product &&
          product.published &&
          product.status === "ACTIVE" &&
          !shopifyMock.withholdStorefrontUrl &&
          !shopifyMock.passwordProtected;
        return HttpResponse.json({
          data: {
            product: product
              ? {
                  id: product.id,
                  handle: product.handle,
                  status: product.status,
                  onlineStoreUrl: visible ? `https://${host}/products/${product.handle}` : null,
                }
              : null,
            shop: { primaryDomain: { host, url: `https://${host}` } },
          },
        });
      }

      case "SelfieStudioStorefrontPassword":
        return HttpResponse.json({
          data: { onlineStore: { passwordProtection: { enabled: shopifyMock.passwordProtected } } },
        });

      case "SelfieStudioProductMedia": {
        const product = shopifyMock.products.get(variables.id as string);
        const status = shopifyMock.mediaStatus;
        return HttpResponse.json({
          data: {
            product: product
              ? {
                  id: product.id,
                  media: {
                    nodes: product.media.map((_, index) => ({
                      id: `gid://shopify/MediaImage/${product.id.split("/").pop()}${index}`,
                      status,
                      mediaErrors:
                        status === "FAILED"
                          ? [
                              {
                                code: "IMAGE_DOWNLOAD_FAILURE",
                                details: "Could not download the image from the source URL",
                                message: "Image could not be downloaded",
                              },
                            ]
                          : [],
                    })),
                  },
                }
              : null,
          },
        });
      }

      default:
        return HttpResponse.json(
          { errors: [{ message: `Unknown operation ${operation}` }] },
          { status: 200 },
        );
    }
  }),
];
