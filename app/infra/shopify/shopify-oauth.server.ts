import crypto from "node:crypto";
import { isShopDomain } from "~/lib/shop-domain";
import type { FetchLike } from "~/infra/shopify/shopify-errors.server";
import { defaultFetch, shopifyHttpError, ShopifyRequestError, ShopifyTransientError } from "~/infra/shopify/shopify-errors.server";

/**
 * Shopify's authorization-code grant for an app installed on a merchant's
 * store: the authorize URL, the callback's HMAC check and the code-for-token
 * exchange (offline token: it keeps working when the merchant logs out).
 */

/** Products to create and update, publications to put them on the Online Store. */
export const SHOPIFY_SCOPES = ["write_products", "write_publications"] as const;

export function shopifyAuthorizeUrl(args: { shop: string; clientId: string; redirectUri: string; state: string }): string {
  if (!isShopDomain(args.shop)) throw new Error("Not a myshopify.com domain");
  const url = new URL(`https://${args.shop}/admin/oauth/authorize`);
  url.searchParams.set("client_id", args.clientId);
  url.searchParams.set("scope", SHOPIFY_SCOPES.join(","));
  url.searchParams.set("redirect_uri", args.redirectUri);
  url.searchParams.set("state", args.state);
  return url.toString();
}

/** The message Shopify signs: every query parameter except hmac (and signature), sorted by name. */
export function shopifyHmacMessage(params: URLSearchParams): string {
  const entries = [...params.entries()].filter(([name]) => name !== "hmac" && name !== "signature");
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(entries).toString();
}

/** Whether the callback query carries a valid hex HMAC-SHA256 made with the app's client secret. */
export function verifyShopifyHmac(params: URLSearchParams, clientSecret: string): boolean {
  const given = params.get("hmac") ?? "";
  if (!/^[0-9a-f]{64}$/i.test(given)) return false;
  const expected = crypto.createHmac("sha256", clientSecret).update(shopifyHmacMessage(params)).digest("hex");
  return crypto.timingSafeEqual(Buffer.from(given.toLowerCase(), "utf8"), Buffer.from(expected, "utf8"));
}

export interface ShopifyToken {
  accessToken: string;
  scopes: string[];
}

export async function exchangeShopifyCode(args: {
  shop: string;
  code: string;
  clientId: string;
  clientSecret: string;
  fetch?: FetchLike;
}): Promise<ShopifyToken> {
  if (!isShopDomain(args.shop)) throw new ShopifyRequestError("Not a myshopify.com domain");
  const doFetch = args.fetch ?? defaultFetch;
  let response: Response;
  try {
    response = await doFetch(`https://${args.shop}/admin/oauth/access_token`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ client_id: args.clientId, client_secret: args.clientSecret, code: args.code }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new ShopifyTransientError(`Could not reach Shopify: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) throw await shopifyHttpError(response, "Token exchange");
  const body = (await response.json().catch(() => null)) as { access_token?: unknown; scope?: unknown } | null;
  if (!body || typeof body.access_token !== "string" || body.access_token.length === 0) {
    throw new ShopifyRequestError("Shopify's token answer had no access token");
  }
  const scopes = typeof body.scope === "string" ? body.scope.split(",").map((s) => s.trim()).filter(Boolean) : [];
  return { accessToken: body.access_token, scopes };
}
