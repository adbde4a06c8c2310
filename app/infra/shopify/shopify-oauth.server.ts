import crypto from "node:crypto";
import { isShopDomain } from "~/lib/shop-domain";
import type { FetchLike } from "~/infra/shopify/shopify-errors.server";
import {
  defaultFetch,
  shopifyHttpError,
  ShopifyRequestError,
  ShopifyTransientError,
} from "~/infra/shopify/shopify-errors.server";
import { networkFailureReason } from "~/infra/network-failure.server";

/**
 * Shopify's authorization-code grant for an app installed on a merchant's
 * store: the authorize URL, the callback's HMAC check and the code-for-token
 * exchange, and the refresh of an expiring offline token (offline: it keeps
 * working when the merchant logs out; expiring: it lasts an hour and is
 * renewed with a refresh token, as Shopify requires of public apps).
 */

/** Products to create and update, publications to put them on the Online Store, paid orders to deliver (orders/paid). */
export const SHOPIFY_SCOPES = ["write_products", "write_publications", "read_orders"] as const;

export function shopifyAuthorizeUrl(args: {
  shop: string;
  clientId: string;
  redirectUri: string;
  state: string;
}): string {
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
  // Sorted as @shopify/shopify-api sorts them (tests/contracts/shopify-hmac.test.ts holds us to it).
  entries.sort(([a], [b]) => a.localeCompare(b));
  return new URLSearchParams(entries).toString();
}

/** Whether the callback query carries a valid hex HMAC-SHA256 made with the app's client secret. */
export function verifyShopifyHmac(params: URLSearchParams, clientSecret: string): boolean {
  const given = params.get("hmac") ?? "";
  if (!/^[0-9a-f]{64}$/i.test(given)) return false;
  const expected = crypto
    .createHmac("sha256", clientSecret)
    .update(shopifyHmacMessage(params))
    .digest("hex");
  return crypto.timingSafeEqual(
    Buffer.from(given.toLowerCase(), "utf8"),
    Buffer.from(expected, "utf8"),
  );
}

/**
 * What a token endpoint answered. An expiring offline token (what the app asks
 * for) lasts `expires_in` seconds and comes with a refresh token that itself
 * expires; a store may still answer a token without expiry (then both are null).
 */
export interface ShopifyToken {
  accessToken: string;
  scopes: string[];
  refreshToken: string | null;
  /** When the access token stops working, or null when it does not expire. */
  expiresAt: Date | null;
  /** When the refresh token stops working, or null when Shopify did not say. */
  refreshTokenExpiresAt: Date | null;
}

/** Shopify refused a refresh (invalid_grant and the like): only connecting again helps. */
export class ShopifyGrantError extends Error {
  readonly retryable = false;
  constructor(message: string) {
    super(message);
    this.name = "ShopifyGrantError";
  }
}

async function postTokenEndpoint(
  shop: string,
  body: Record<string, unknown>,
  doFetch: FetchLike,
  now: Date,
): Promise<ShopifyToken> {
  let response: Response;
  try {
    response = await doFetch(`https://${shop}/admin/oauth/access_token`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new ShopifyTransientError(
      `Could not reach Shopify: ${networkFailureReason(error)}. Please try again in a few minutes.`,
    );
  }
  if (response.status === 400 || response.status === 401) {
    // OAuth's error answer, e.g. {"error":"invalid_grant","error_description":"..."}.
    const error = (await response.json().catch(() => null)) as {
      error?: unknown;
      error_description?: unknown;
    } | null;
    const code = typeof error?.error === "string" ? error.error : `HTTP ${response.status}`;
    const description =
      typeof error?.error_description === "string"
        ? `: ${error.error_description.slice(0, 200)}`
        : "";
    throw new ShopifyGrantError(`Shopify refused the grant (${code}${description})`);
  }
  if (!response.ok) throw await shopifyHttpError(response, "Token endpoint");
  const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!answer || typeof answer.access_token !== "string" || answer.access_token.length === 0) {
    throw new ShopifyRequestError("Shopify's token answer had no access token");
  }
  const seconds = (value: unknown) =>
    typeof value === "number" && Number.isFinite(value) && value > 0 ? value : null;
  const expiresIn = seconds(answer.expires_in);
  const refreshExpiresIn = seconds(answer.refresh_token_expires_in);
  return {
    accessToken: answer.access_token,
    scopes:
      typeof answer.scope === "string"
        ? answer.scope
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    refreshToken:
      typeof answer.refresh_token === "string" && answer.refresh_token.length > 0
        ? answer.refresh_token
        : null,
    expiresAt: expiresIn === null ? null : new Date(now.getTime() + expiresIn * 1000),
    refreshTokenExpiresAt:
      refreshExpiresIn === null ? null : new Date(now.getTime() + refreshExpiresIn * 1000),
  };
}

/** What every call to the token endpoint names: the shop and the app's credentials. */
interface TokenEndpointCall {
  shop: string;
  clientId: string;
  clientSecret: string;
  now?: Date;
  fetch?: FetchLike;
}

/** Posts the app's credentials and `grant` to the shop's token endpoint (a shop domain only). */
async function requestShopifyToken(
  call: TokenEndpointCall,
  grant: Record<string, unknown>,
): Promise<ShopifyToken> {
  if (!isShopDomain(call.shop)) throw new ShopifyRequestError("Not a myshopify.com domain");
  return postTokenEndpoint(
    call.shop,
    { client_id: call.clientId, client_secret: call.clientSecret, ...grant },
    call.fetch ?? defaultFetch,
    call.now ?? new Date(),
  );
}

/** The authorization code for an expiring offline token (`expiring: 1`) and its refresh token. */
export async function exchangeShopifyCode(
  args: TokenEndpointCall & { code: string },
): Promise<ShopifyToken> {
  return requestShopifyToken(args, { code: args.code, expiring: 1 });
}

/**
 * A refresh token for a new access token. Shopify rotates the refresh token:
 * the answer's one replaces the stored one. A refused refresh throws
 * ShopifyGrantError.
 */
export async function refreshShopifyToken(
  args: TokenEndpointCall & { refreshToken: string },
): Promise<ShopifyToken> {
  return requestShopifyToken(args, {
    grant_type: "refresh_token",
    refresh_token: args.refreshToken,
  });
}

const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
const OFFLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:offline-access-token";

/**
 * Shopify's token exchange that turns a non-expiring offline token (from
 * before the app asked for expiring ones) into an expiring offline token and
 * its refresh token. Shopify stops accepting non-expiring tokens of public
 * apps on 2027-01-01; after the exchange the original token no longer works
 * for the Admin API. Sending the same original token again within a few days
 * answers the same pair (so a lost answer can be recovered). A refused
 * exchange throws ShopifyGrantError.
 */
export async function migrateShopifyToken(
  args: TokenEndpointCall & { nonExpiringToken: string },
): Promise<ShopifyToken> {
  return requestShopifyToken(args, {
    grant_type: TOKEN_EXCHANGE_GRANT,
    subject_token: args.nonExpiringToken,
    subject_token_type: OFFLINE_TOKEN_TYPE,
    requested_token_type: OFFLINE_TOKEN_TYPE,
    expiring: "1",
  });
}
