import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { open, seal } from "~/infra/crypto-box.server";
import { badRequest } from "~/infra/errors.server";
import { newId, newSecretToken, sha256 } from "~/infra/ids.server";
import type { FetchLike } from "~/infra/shopify/shopify-errors.server";
import { shopifyAuthorizeUrl, verifyShopifyHmac } from "~/infra/shopify/shopify-oauth.server";
import { isShopDomain } from "~/lib/shop-domain";
import { getPlatform } from "~/features/publishing/platforms";
import { connectFailedText, OAUTH_STATE_TTL_MS } from "~/features/publishing/types";
import {
  isStoreTakenConflict,
  saveOAuthIntegration,
  shopifyStoreHolder,
  storeTakenText,
} from "~/features/publishing/integrations/integrations.server";
import {
  grantedShopifyToken,
  OAuthCallbackError,
  oauthCallbackUrl,
  shopifyOAuthConfigured,
  startOAuth,
} from "~/features/publishing/integrations/oauth-connections.server";

/**
 * Installing the app from a store's Shopify admin (the App Store's "Install"
 * or an install link). Shopify opens the app's App URL with `shop`,
 * `timestamp` and `hmac`; the App Store requires the app to ask for access
 * (OAuth) at once, before any sign-in of its own. So the App URL handler
 * checks the request and goes straight to Shopify's authorize page:
 * - with a creator signed in here, as the Connect button does (the state is
 *   theirs, and the callback connects the store to them);
 * - with nobody signed in, with a state bound to this browser (a cookie) and
 *   kept here; the callback then exchanges the code and keeps the access
 *   Shopify granted, sealed, for an hour, with a claim token in the same
 *   browser's cookie. Once signed in (or registered), the creator sees which
 *   store is waiting and claims it with a button; an expired or already
 *   claimed grant cannot be claimed.
 * A store already connected here is not sent through OAuth again (Shopify
 * opens the App URL each time the merchant opens the app).
 */

/** How far Shopify's install request may be dated from our clock (as @shopify/shopify-api allows). */
export const INSTALL_REQUEST_TOLERANCE_SECONDS = 90;

/** How long a kept grant waits for a creator to claim it. */
export const INSTALL_GRANT_TTL_MS = 60 * 60 * 1000;

const NOT_SET_UP =
  "Installing Selfie Studio from Shopify is not set up on this server (its Shopify app credentials are missing).";
const NOT_FROM_SHOPIFY =
  "This install link could not be verified as coming from Shopify. Open Selfie Studio again from your Shopify admin.";
const OUT_OF_DATE =
  "This install link is out of date (Shopify dates each one and it is good for a minute or so). Open Selfie Studio again from your Shopify admin.";
const NO_STORE = "This install link names no myshopify.com store.";

/** The sentence for a grant that is not waiting any more (expired, claimed, or never there). */
export const INSTALL_GONE_TEXT =
  "No Shopify store is waiting to be connected: the installation is more than an hour old or was already connected. Open Selfie Studio again from your Shopify admin to start over.";

/**
 * Checks the request Shopify sends to the App URL: one `shop` (a
 * myshopify.com domain), one `timestamp` within INSTALL_REQUEST_TOLERANCE_SECONDS
 * of `now`, and one `hmac`, the hex HMAC-SHA256 under the app's client secret
 * of the other parameters sorted by name. Answers the store; a request that
 * fails any check is a 400 saying which.
 */
export function verifyInstallRequest(
  params: URLSearchParams,
  args: { clientSecret: string; now: Date },
): string {
  for (const name of ["shop", "timestamp", "hmac"]) {
    if (params.getAll(name).length !== 1) {
      throw badRequest(name === "shop" ? NO_STORE : NOT_FROM_SHOPIFY);
    }
  }
  const shop = params.get("shop");
  if (!isShopDomain(shop)) throw badRequest(NO_STORE);
  if (!verifyShopifyHmac(params, args.clientSecret)) throw badRequest(NOT_FROM_SHOPIFY);
  const timestamp = params.get("timestamp") ?? "";
  const seconds = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : NaN;
  if (
    !Number.isFinite(seconds) ||
    Math.abs(args.now.getTime() / 1000 - seconds) > INSTALL_REQUEST_TOLERANCE_SECONDS
  ) {
    throw badRequest(OUT_OF_DATE);
  }
  return shop;
}

export type InstallStart =
  /** The store is connected here already: nothing to ask Shopify. */
  | { kind: "connected"; shop: string }
  /** Off to Shopify's authorize page; `browserState` goes in this browser's cookie when nobody is signed in. */
  | { kind: "authorize"; shop: string; url: string; browserState: string | null };

/** The App URL: checks Shopify's install request and answers where the merchant goes next. */
export async function startShopifyInstall(
  db: DB,
  args: {
    config: Pick<Config, "SHOPIFY_CLIENT_ID" | "SHOPIFY_CLIENT_SECRET">;
    userId: string | null;
    params: URLSearchParams;
    origin: string;
    now: Date;
  },
): Promise<InstallStart> {
  if (!shopifyOAuthConfigured(args.config)) throw badRequest(NOT_SET_UP);
  const shop = verifyInstallRequest(args.params, {
    clientSecret: args.config.SHOPIFY_CLIENT_SECRET!,
    now: args.now,
  });
  // Connected here already (by anyone): Shopify opened the app, there is nothing to install.
  if (await shopifyStoreHolder(db, { shop, exceptUserId: "" })) return { kind: "connected", shop };
  if (args.userId) {
    const url = await startOAuth(db, {
      config: args.config,
      userId: args.userId,
      platform: getPlatform("shopify"),
      shop,
      display: "page",
      origin: args.origin,
      now: args.now,
    });
    return { kind: "authorize", shop, url, browserState: null };
  }
  const state = newSecretToken();
  await db
    .insertInto("shopify_installs")
    .values({
      id: newId(),
      shop_domain: shop,
      state_hash: sha256(state),
      state_used_at: null,
      credentials: null,
      claim_hash: null,
      created_at: args.now.toISOString(),
      expires_at: new Date(args.now.getTime() + OAUTH_STATE_TTL_MS).toISOString(),
    })
    .execute();
  // Installs nobody finished or claimed are of no use to anyone: swept as we go.
  await db
    .deleteFrom("shopify_installs")
    .where("expires_at", "<", args.now.toISOString())
    .execute();
  const url = shopifyAuthorizeUrl({
    shop,
    clientId: args.config.SHOPIFY_CLIENT_ID!,
    redirectUri: oauthCallbackUrl(args.origin, "shopify"),
    state,
  });
  return { kind: "authorize", shop, url, browserState: state };
}

interface KeptGrant {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: string | null;
  refreshTokenExpiresAt: string | null;
  scopes: string[];
}

const grantData = (installId: string) => `shopify-install:${installId}`;

/**
 * The callback of an install started with nobody signed in: the state must be
 * the one this browser was given (its cookie) and unused, Shopify's HMAC must
 * hold and the store must be the one installing. The code is exchanged at
 * once (it is short-lived) and the access kept sealed for an hour; answers the
 * claim token for this browser. Anything off is an OAuthCallbackError, and
 * nothing is kept.
 */
export async function keepShopifyInstallGrant(
  db: DB,
  args: {
    config: Pick<Config, "SHOPIFY_CLIENT_ID" | "SHOPIFY_CLIENT_SECRET">;
    params: URLSearchParams;
    browserState: string;
    now: Date;
    fetch?: FetchLike;
  },
): Promise<{ shop: string; claimToken: string }> {
  const failText = connectFailedText("Shopify");
  if (!shopifyOAuthConfigured(args.config)) throw new OAuthCallbackError(failText, "page");
  const state = args.params.get("state") ?? "";
  if (!state || state.length > 200 || state !== args.browserState) {
    throw new OAuthCallbackError(`${failText}: the answer could not be verified.`, "page");
  }
  const now = args.now.toISOString();
  const install = await db
    .updateTable("shopify_installs")
    .set({ state_used_at: now })
    .where("state_hash", "=", sha256(state))
    .where("state_used_at", "is", null)
    .where("expires_at", ">", now)
    .returningAll()
    .executeTakeFirst();
  if (!install) {
    throw new OAuthCallbackError(
      `${failText}: this installation link has expired or was already used. Open Selfie Studio again from your Shopify admin.`,
      "page",
    );
  }
  const secret = args.config.SHOPIFY_CLIENT_SECRET!;
  const shop = args.params.get("shop");
  const code = args.params.get("code");
  if (!verifyShopifyHmac(args.params, secret) || shop !== install.shop_domain || !code) {
    throw new OAuthCallbackError(`${failText}: the answer could not be verified.`, "page");
  }
  const token = await grantedShopifyToken({
    shop,
    code,
    config: args.config,
    now: args.now,
    fetch: args.fetch,
    failText,
    display: "page",
  });
  const kept: KeptGrant = {
    accessToken: token.accessToken,
    refreshToken: token.refreshToken,
    expiresAt: token.expiresAt?.toISOString() ?? null,
    refreshTokenExpiresAt: token.refreshTokenExpiresAt?.toISOString() ?? null,
    scopes: token.scopes,
  };
  const claimToken = newSecretToken();
  await db
    .updateTable("shopify_installs")
    .set({
      credentials: seal(JSON.stringify(kept), grantData(install.id)),
      claim_hash: sha256(claimToken),
      expires_at: new Date(args.now.getTime() + INSTALL_GRANT_TTL_MS).toISOString(),
    })
    .where("id", "=", install.id)
    .execute();
  return { shop, claimToken };
}

/** The store a claim token's grant is for, while it waits; null when nothing is waiting. */
export async function waitingShopifyInstall(
  db: DB,
  args: { claimToken: string; now: Date },
): Promise<{ shop: string; expiresAt: string } | null> {
  if (!args.claimToken || args.claimToken.length > 200) return null;
  const row = await db
    .selectFrom("shopify_installs")
    .select(["shop_domain", "expires_at"])
    .where("claim_hash", "=", sha256(args.claimToken))
    .where("credentials", "is not", null)
    .where("expires_at", ">", args.now.toISOString())
    .executeTakeFirst();
  return row ? { shop: row.shop_domain, expiresAt: row.expires_at } : null;
}

/**
 * Connects the kept grant to the signed-in creator. The grant is used up by
 * one DELETE, so two claims cannot both succeed; an expired, claimed or
 * unknown one is a 400, and so is a store another creator connected meanwhile.
 */
export async function claimShopifyInstall(
  db: DB,
  args: { userId: string; claimToken: string; now: Date },
): Promise<{ shop: string }> {
  if (!args.claimToken || args.claimToken.length > 200) throw badRequest(INSTALL_GONE_TEXT);
  const row = await db
    .deleteFrom("shopify_installs")
    .where("claim_hash", "=", sha256(args.claimToken))
    .where("credentials", "is not", null)
    .where("expires_at", ">", args.now.toISOString())
    .returningAll()
    .executeTakeFirst();
  if (!row?.credentials) throw badRequest(INSTALL_GONE_TEXT);
  const shop = row.shop_domain;
  const grant = JSON.parse(open(row.credentials, grantData(row.id))) as KeptGrant;
  if (await shopifyStoreHolder(db, { shop, exceptUserId: args.userId })) {
    throw badRequest(storeTakenText(shop));
  }
  try {
    await saveOAuthIntegration(db, {
      userId: args.userId,
      platform: "shopify",
      accessToken: grant.accessToken,
      refreshToken: grant.refreshToken,
      expiresAt: grant.expiresAt ? new Date(grant.expiresAt) : null,
      refreshTokenExpiresAt: grant.refreshTokenExpiresAt
        ? new Date(grant.refreshTokenExpiresAt)
        : null,
      scopes: grant.scopes,
      shopDomain: shop,
      now: args.now,
    });
  } catch (error) {
    if (isStoreTakenConflict(error)) throw badRequest(storeTakenText(shop));
    throw error;
  }
  return { shop };
}
