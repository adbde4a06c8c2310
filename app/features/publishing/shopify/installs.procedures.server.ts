import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import {
  claimShopifyInstall,
  keepShopifyInstallGrant,
  startShopifyInstall,
  waitingShopifyInstall,
} from "~/features/publishing/shopify/shopify-installs.server";

// Installing the app from a store's Shopify admin (shopify-installs.server.ts): the App URL, the
// callback of an install nobody signed in for, and the page where a creator claims the store.

const claimToken = z.string().max(200);

/**
 * GET /api/oauth/shopify/install, the Shopify app's App URL: checks Shopify's
 * install request (HMAC, store, timestamp) and answers where to send the
 * merchant: Shopify's authorize page, or /integrations for a store connected
 * already. A request that fails a check is a 400 and changes nothing.
 */
export const startShopifyInstallation = defineProcedure({
  name: "startShopifyInstallation",
  access: "public",
  input: z.object({ query: z.instanceof(URLSearchParams) }),
  run: ({ input, user, ctx }) =>
    startShopifyInstall(ctx.db, {
      config: ctx.config,
      // A suspended creator's install is kept aside like anyone's (their claim is then refused).
      userId: user && !user.banned ? user.id : null,
      params: input.query,
      origin: ctx.origin,
      now: ctx.now,
    }),
});

/**
 * The OAuth callback of an install started with nobody signed in (its state
 * is the one in the browser's cookie): keeps the access Shopify granted for an
 * hour and answers the claim token for the browser. Throws OAuthCallbackError.
 */
export const keepShopifyInstallation = defineProcedure({
  name: "keepShopifyInstallation",
  access: "public",
  input: z.object({ query: z.instanceof(URLSearchParams), browserState: z.string().max(200) }),
  run: ({ input, ctx }) =>
    keepShopifyInstallGrant(ctx.db, {
      config: ctx.config,
      params: input.query,
      browserState: input.browserState,
      now: ctx.now,
    }),
});

/** The store waiting for this browser's creator to claim it, or null (/integrations/shopify-install). */
export const waitingShopifyInstallation = defineProcedure({
  name: "waitingShopifyInstallation",
  access: "user",
  input: z.object({ claimToken }),
  run: ({ input, ctx }) =>
    waitingShopifyInstall(ctx.db, { claimToken: input.claimToken, now: ctx.now }),
});

/** The Connect button of /integrations/shopify-install: the waiting store becomes the creator's connection. */
export const claimShopifyInstallation = defineProcedure({
  name: "claimShopifyInstallation",
  access: "user",
  input: z.object({ claimToken }),
  run: ({ input, user, ctx }) =>
    claimShopifyInstall(ctx.db, { userId: user.id, claimToken: input.claimToken, now: ctx.now }),
});
