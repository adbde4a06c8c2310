import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { badRequest } from "~/infra/errors.server";
import type { FetchLike } from "~/infra/shopify/shopify-errors.server";
import {
  exchangeShopifyCode,
  SHOPIFY_SCOPES,
  shopifyAuthorizeUrl,
  verifyShopifyHmac,
} from "~/infra/shopify/shopify-oauth.server";
import { ShopifyAdminClient } from "~/infra/shopify/shopify-admin.server";
import { ShopifyAuthError } from "~/infra/shopify/shopify-errors.server";
import { getPlatform } from "~/features/publishing/platforms";
import type { Platform, PlatformId } from "~/features/publishing/platforms";
import { connectFailedText } from "~/features/publishing/types";
import { isShopDomain } from "~/lib/shop-domain";
import {
  consumeOAuthState,
  createOAuthState,
} from "~/features/publishing/integrations/oauth-states.server";
import {
  findIntegration,
  isStoreTakenConflict,
  saveOAuthIntegration,
  shopifyStoreHolder,
  storeTakenText,
} from "~/features/publishing/integrations/integrations.server";

/**
 * Connecting a platform by OAuth (Shopify is the one platform of the registry
 * with an OAuth app): the authorize URL with a fresh state, and the callback
 * that checks the state and Shopify's HMAC before exchanging the code.
 */

export function shopifyOAuthConfigured(
  config: Pick<Config, "SHOPIFY_CLIENT_ID" | "SHOPIFY_CLIENT_SECRET">,
): boolean {
  return Boolean(config.SHOPIFY_CLIENT_ID && config.SHOPIFY_CLIENT_SECRET);
}

export function oauthCallbackUrl(origin: string, platform: PlatformId): string {
  return `${origin}/api/oauth/${platform}/callback`;
}

/** Where the creator goes to connect a platform: the provider (OAuth), else the card's setup form. */
export function integrationsConnectUrl(origin: string, platform: PlatformId): string {
  return `${origin}/integrations?connect=${platform}#${platform}`;
}

export async function startOAuth(
  db: DB,
  args: {
    config: Pick<Config, "SHOPIFY_CLIENT_ID" | "SHOPIFY_CLIENT_SECRET">;
    userId: string;
    platform: Platform;
    shop: string | null;
    display: "popup" | "page";
    origin: string;
    now: Date;
  },
): Promise<string> {
  if (args.platform.connect !== "oauth" || args.platform.closed) {
    throw badRequest(`${args.platform.name} does not connect with OAuth; use its setup form`);
  }
  if (!shopifyOAuthConfigured(args.config)) {
    throw badRequest(
      "Connecting Shopify by OAuth is not set up on this server. Use manual setup with your store's Admin API access token.",
    );
  }
  if (!args.shop)
    throw badRequest("Please enter your store's myshopify.com domain", {
      shop: ["Please enter your store's myshopify.com domain"],
    });
  if (await shopifyStoreHolder(db, { shop: args.shop, exceptUserId: args.userId })) {
    throw badRequest(storeTakenText(args.shop), { shop: [storeTakenText(args.shop)] });
  }
  const state = await createOAuthState(db, {
    userId: args.userId,
    platform: args.platform.id,
    shopDomain: args.shop,
    display: args.display,
    now: args.now,
  });
  return shopifyAuthorizeUrl({
    shop: args.shop,
    clientId: args.config.SHOPIFY_CLIENT_ID!,
    redirectUri: oauthCallbackUrl(args.origin, args.platform.id),
    state,
  });
}

/**
 * The provider's URL for a creator whose connection is missing or refused,
 * when one can be made without asking anything (Shopify with a known shop);
 * otherwise the integrations page's card for the platform.
 */
export async function authUrlFor(
  db: DB,
  args: {
    config: Pick<Config, "SHOPIFY_CLIENT_ID" | "SHOPIFY_CLIENT_SECRET">;
    userId: string;
    platform: Platform;
    origin: string;
    now: Date;
  },
): Promise<string> {
  if (args.platform.connect === "oauth" && shopifyOAuthConfigured(args.config)) {
    const existing = await findIntegration(db, args.userId, args.platform.id);
    if (existing?.shop_domain) {
      return startOAuth(db, { ...args, shop: existing.shop_domain, display: "page" });
    }
  }
  return integrationsConnectUrl(args.origin, args.platform.id);
}

export interface OAuthCompletion {
  platform: PlatformId;
  display: "popup" | "page";
}

export class OAuthCallbackError extends Error {
  constructor(
    message: string,
    public readonly display: "popup" | "page",
  ) {
    super(message);
    this.name = "OAuthCallbackError";
  }
}

/**
 * Completes an OAuth connection from the provider's callback query. Throws
 * OAuthCallbackError with a message for the creator when anything is off: a
 * state that is unknown, used, expired or someone else's; a bad HMAC; a shop
 * other than the one asked for; a failed exchange.
 */
export async function completeOAuth(
  db: DB,
  args: {
    config: Pick<Config, "SHOPIFY_CLIENT_ID" | "SHOPIFY_CLIENT_SECRET">;
    userId: string;
    platformId: string;
    params: URLSearchParams;
    now: Date;
    fetch?: FetchLike;
  },
): Promise<OAuthCompletion> {
  const platform = args.platformId === "shopify" ? getPlatform("shopify") : null;
  const failText = connectFailedText(platform?.name ?? args.platformId);
  if (!platform || !shopifyOAuthConfigured(args.config))
    throw new OAuthCallbackError(failText, "page");
  const secret = args.config.SHOPIFY_CLIENT_SECRET!;
  const hmacOk = verifyShopifyHmac(args.params, secret);
  const claim = await consumeOAuthState(db, {
    state: args.params.get("state") ?? "",
    userId: args.userId,
    platform: platform.id,
    now: args.now,
  });
  if (!claim) {
    throw new OAuthCallbackError(
      `${failText}: this connection link has expired or was already used. Please try again.`,
      "page",
    );
  }
  const shop = args.params.get("shop");
  const code = args.params.get("code");
  if (!hmacOk || !isShopDomain(shop) || shop !== claim.shopDomain || !code) {
    throw new OAuthCallbackError(`${failText}: the answer could not be verified.`, claim.display);
  }
  // Before the code is exchanged: the exchange itself is what revokes the other creator's token.
  if (await shopifyStoreHolder(db, { shop, exceptUserId: args.userId })) {
    throw new OAuthCallbackError(storeTakenText(shop), claim.display);
  }
  const token = await grantedShopifyToken({
    shop,
    code,
    config: args.config,
    now: args.now,
    fetch: args.fetch,
    failText,
    display: claim.display,
  });
  try {
    await saveOAuthIntegration(db, {
      userId: args.userId,
      platform: platform.id,
      accessToken: token.accessToken,
      refreshToken: token.refreshToken,
      expiresAt: token.expiresAt,
      refreshTokenExpiresAt: token.refreshTokenExpiresAt,
      scopes: token.scopes,
      shopDomain: shop,
      now: args.now,
    });
  } catch (error) {
    // Another creator's callback for the same store finished first (the unique index): theirs stands.
    if (isStoreTakenConflict(error))
      throw new OAuthCallbackError(storeTakenText(shop), claim.display);
    throw error;
  }
  return { platform: platform.id, display: claim.display };
}

/**
 * Exchanges an OAuth callback's code for the store's token pair and checks the
 * store granted product access: anything else is an OAuthCallbackError worded
 * with `failText`, shown as `display`.
 */
export async function grantedShopifyToken(args: {
  shop: string;
  code: string;
  config: Pick<Config, "SHOPIFY_CLIENT_ID" | "SHOPIFY_CLIENT_SECRET">;
  now: Date;
  fetch?: FetchLike;
  failText: string;
  display: "popup" | "page";
}) {
  let token;
  try {
    token = await exchangeShopifyCode({
      shop: args.shop,
      code: args.code,
      clientId: args.config.SHOPIFY_CLIENT_ID!,
      clientSecret: args.config.SHOPIFY_CLIENT_SECRET!,
      now: args.now,
      fetch: args.fetch,
    });
  } catch {
    throw new OAuthCallbackError(`${args.failText}: Shopify did not grant access.`, args.display);
  }
  if (token.scopes.length > 0 && !token.scopes.includes("write_products")) {
    throw new OAuthCallbackError(
      `${args.failText}: the store did not grant product access (${SHOPIFY_SCOPES.join(", ")}).`,
      args.display,
    );
  }
  return token;
}

/**
 * Checks a store's custom-app Admin API token before saving it: Shopify must
 * accept it. A refused token is a 400 with the form's field error.
 */
export async function verifyShopifyToken(
  shop: string,
  token: string,
  fetch?: FetchLike,
): Promise<void> {
  const client = new ShopifyAdminClient(shop, token, fetch);
  try {
    await client.graphql<{ shop: { name: string } }>("query SelfieStudioShop { shop { name } }");
  } catch (error) {
    if (error instanceof ShopifyAuthError) {
      throw badRequest("Shopify refused this access token", {
        apiKey: ["Shopify refused this access token"],
      });
    }
    throw badRequest(
      `Could not check the token with Shopify: ${error instanceof Error ? error.message : "unknown error"}`,
      { shopDomain: ["Could not reach this store"] },
    );
  }
}
