import crypto from "node:crypto";
import { http, HttpResponse } from "msw";

/**
 * A Shopify store for tests, at the HTTP boundary:
 * - POST https://{shop}/admin/oauth/access_token: the code-for-token exchange;
 * - POST https://{shop}/admin/api/{version}/graphql.json: the Admin GraphQL
 *   operations the app sends (recognised by their operation names), with
 *   products, variants, publications and the storefront URL kept in memory.
 * A token the store does not know answers 401, as Shopify does.
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
  exchanges: [] as { shop: string; clientId: unknown; clientSecret: unknown; code: unknown }[],
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
    this.noOnlineStore = false;
    this.withholdStorefrontUrl = false;
    this.nextId = 1000;
  },
  /** Makes a code the store will exchange for `token`. */
  issueCode(shop: string, token = `shpat_${crypto.randomBytes(16).toString("hex")}`, scope = "write_products,write_publications") {
    const code = crypto.randomBytes(16).toString("hex");
    this.codes.set(code, { shop, token, scope });
    return { code, token };
  },
  acceptToken(shop: string, token: string) {
    this.tokens.set(token, shop);
  },
};

/**
 * Signs a callback query as Shopify does, written from Shopify's documented
 * rule: drop `hmac`, sort the rest by name, join as name=value with "&", and
 * take the hex HMAC-SHA256 under the app's client secret.
 */
export function signShopifyCallback(params: Record<string, string>, secret = SHOPIFY_TEST_CLIENT_SECRET): URLSearchParams {
  const message = Object.keys(params)
    .filter((key) => key !== "hmac")
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join("&");
  const hmac = crypto.createHmac("sha256", secret).update(message).digest("hex");
  return new URLSearchParams({ ...params, hmac });
}

function operationName(query: string): string {
  return /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? "anonymous";
}

function handleize(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "product";
}

export const shopifyHandlers = [
  http.post("https://:shop/admin/oauth/access_token", async ({ request, params }) => {
    const shop = String(params.shop);
    const body = (await request.json()) as { client_id?: unknown; client_secret?: unknown; code?: unknown };
    shopifyMock.exchanges.push({ shop, clientId: body.client_id, clientSecret: body.client_secret, code: body.code });
    const grant = typeof body.code === "string" ? shopifyMock.codes.get(body.code) : undefined;
    if (body.client_id !== SHOPIFY_TEST_CLIENT_ID || body.client_secret !== SHOPIFY_TEST_CLIENT_SECRET || !grant || grant.shop !== shop) {
      return HttpResponse.json({ error: "invalid_request", error_description: "Invalid code" }, { status: 400 });
    }
    shopifyMock.codes.delete(body.code as string);
    shopifyMock.tokens.set(grant.token, shop);
    return HttpResponse.json({ access_token: grant.token, scope: grant.scope });
  }),

  http.post("https://:shop/admin/api/:version/graphql.json", async ({ request, params }) => {
    const shop = String(params.shop);
    const token = request.headers.get("X-Shopify-Access-Token");
    const { query, variables = {} } = (await request.json()) as { query: string; variables?: Record<string, unknown> };
    const operation = operationName(query);
    shopifyMock.graphql.push({ shop, version: String(params.version), token, operation, variables });
    if (!token || shopifyMock.tokens.get(token) !== shop) {
      return HttpResponse.json({ errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" }, { status: 401 });
    }

    switch (operation) {
      case "SelfieStudioShop":
        return HttpResponse.json({ data: { shop: { name: "Test Store" } } });

      case "SelfieStudioProductCreate": {
        const input = variables.product as { title: string; descriptionHtml: string; tags: string[]; status: string };
        const media = (variables.media as MockProduct["media"]) ?? [];
        if (!input.title) {
          return HttpResponse.json({
            data: { productCreate: { product: null, userErrors: [{ field: ["title"], message: "Title can't be blank" }] } },
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
        };
        shopifyMock.products.set(product.id, product);
        return HttpResponse.json({
          data: {
            productCreate: {
              product: { id: product.id, handle: product.handle, variants: { nodes: [{ id: product.variantId }] } },
              userErrors: [],
            },
          },
        });
      }

      case "SelfieStudioProductUpdate": {
        const input = variables.product as { id: string; title: string; descriptionHtml: string; tags: string[]; status: string };
        const product = shopifyMock.products.get(input.id);
        if (!product) {
          return HttpResponse.json({
            data: { productUpdate: { product: null, userErrors: [{ field: ["id"], message: "Product does not exist" }] } },
          });
        }
        Object.assign(product, { title: input.title, descriptionHtml: input.descriptionHtml, tags: input.tags, status: input.status });
        return HttpResponse.json({
          data: {
            productUpdate: {
              product: { id: product.id, handle: product.handle, variants: { nodes: [{ id: product.variantId }] } },
              userErrors: [],
            },
          },
        });
      }

      case "SelfieStudioVariantPrice": {
        const product = shopifyMock.products.get(variables.productId as string);
        const [variant] = variables.variants as { id: string; price: string }[];
        if (!product || variant.id !== product.variantId) {
          return HttpResponse.json({
            data: { productVariantsBulkUpdate: { productVariants: null, userErrors: [{ field: ["variants"], message: "Variant not found" }] } },
          });
        }
        product.price = variant.price;
        return HttpResponse.json({
          data: { productVariantsBulkUpdate: { productVariants: [{ id: variant.id, price: variant.price }], userErrors: [] } },
        });
      }

      case "SelfieStudioPublications":
        return HttpResponse.json({
          data: {
            publications: {
              nodes: [
                ...(shopifyMock.noOnlineStore ? [] : [{ id: "gid://shopify/Publication/1", name: "Online Store" }]),
                { id: "gid://shopify/Publication/2", name: "Point of Sale" },
              ],
            },
          },
        });

      case "SelfieStudioPublish": {
        const product = shopifyMock.products.get(variables.id as string);
        const [{ publicationId }] = variables.input as { publicationId: string }[];
        if (product && publicationId === "gid://shopify/Publication/1") product.published = true;
        return HttpResponse.json({ data: { publishablePublish: { userErrors: product ? [] : [{ field: ["id"], message: "Not found" }] } } });
      }

      case "SelfieStudioProductState": {
        const product = shopifyMock.products.get(variables.id as string);
        return HttpResponse.json({
          data: {
            product: product
              ? {
                  id: product.id,
                  status: product.status,
                  onlineStoreUrl: product.published && product.status === "ACTIVE" && !shopifyMock.withholdStorefrontUrl ? `https://${shop}/products/${product.handle}` : null,
                }
              : null,
          },
        });
      }

      default:
        return HttpResponse.json({ errors: [{ message: `Unknown operation ${operation}` }] }, { status: 200 });
    }
  }),
];
