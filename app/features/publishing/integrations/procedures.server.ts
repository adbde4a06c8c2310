import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { badRequest } from "~/infra/errors.server";
import { INVALID_SHOP_DOMAIN, normalizeShopDomain } from "~/lib/shop-domain";
import {
  getPlatform,
  isPlatformId,
  MARKETPLACE_ID,
  PLATFORM_IDS,
} from "~/features/publishing/platforms";
import type { PlatformId } from "~/features/publishing/platforms";
import { manualIntegrationSchema } from "~/features/publishing/schemas";
import { recentModelReleases } from "~/features/publishing/releases/model-releases.server";
import { undeliveredShopifySales } from "~/features/market/public.server";
import {
  disconnectIntegration,
  integrationJson,
  integrationList,
  platformConnections,
  shopifyStoreHolder,
  storeTakenText,
} from "~/features/publishing/integrations/integrations.server";
import { connectManually } from "~/features/publishing/integrations/manual-connections.server";
import {
  completeOAuth,
  shopifyOAuthConfigured,
  startOAuth,
} from "~/features/publishing/integrations/oauth-connections.server";

// The creator's connections to the platforms: set up by hand or through OAuth, and the /integrations screen.

const platformParam = z
  .string("Unknown platform")
  .trim()
  .toLowerCase()
  .refine((value) => isPlatformId(value), "Unknown platform")
  .transform((value) => value as PlatformId)
  .meta({ enum: [...PLATFORM_IDS] });

/**
 * The creator's connected platforms, `[{platform: "opensea", isActive}]`, the
 * own marketplace first (GET /api/token-marketplace-integrations; GET
 * /api/marketplace-integrations answers the same list with display names).
 */
export const creatorIntegrations = defineProcedure({
  name: "creatorIntegrations",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => integrationList(ctx.db, user.id),
});

/**
 * POST /api/token-marketplace-integrations and the manual setup form. A
 * Shopify token or an Adobe Stock login is checked with the vendor before it
 * is saved; those checks are limited per creator (429 past the limit).
 */
export const createIntegration = defineProcedure({
  name: "createIntegration",
  access: "user",
  input: z.preprocess(
    (value) =>
      value &&
      typeof value === "object" &&
      "platform" in value &&
      typeof value.platform === "string"
        ? { ...value, platform: value.platform.toLowerCase() }
        : value,
    manualIntegrationSchema,
  ),
  async run({ input, user, ctx }) {
    const row = await connectManually(ctx.db, ctx.config, { userId: user.id, input, now: ctx.now });
    const json = integrationJson(row);
    return {
      id: json.id,
      platform: json.platform,
      isActive: json.isActive,
      createdAt: json.createdAt,
      apiKeyLast4: json.apiKeyLast4,
      walletAddress: json.walletAddress,
      shopDomain: json.shopDomain,
      ...(json.accountName ? { username: json.accountName } : {}),
    };
  },
});

/** DELETE /api/token-marketplace-integrations/{platform} and the Disconnect button. */
export const deleteIntegration = defineProcedure({
  name: "deleteIntegration",
  access: "user",
  input: z.object({ platform: platformParam }),
  async run({ input, user, ctx }) {
    if (input.platform === MARKETPLACE_ID)
      throw badRequest(`${getPlatform(MARKETPLACE_ID).name} is always connected`);
    const removed = await disconnectIntegration(ctx.db, {
      userId: user.id,
      platform: input.platform,
    });
    return { platform: input.platform, removed };
  },
});

/** GET /api/oauth/{platform}/authorize: `{authUrl}` for the popup (or a plain link without JS). */
export const oauthAuthorize = defineProcedure({
  name: "oauthAuthorize",
  access: "user",
  input: z.object({
    platform: platformParam,
    shop: z.string().trim().max(200).optional(),
    display: z.enum(["popup", "page"]).default("popup"),
  }),
  async run({ input, user, ctx }) {
    const platform = getPlatform(input.platform);
    const shop = input.shop === undefined ? null : normalizeShopDomain(input.shop);
    if (input.shop !== undefined && input.shop !== "" && !shop) {
      throw badRequest(
        "Please enter your store's myshopify.com domain, e.g. my-store.myshopify.com",
        {
          shop: ["Please enter your store's myshopify.com domain, e.g. my-store.myshopify.com"],
        },
      );
    }
    const authUrl = await startOAuth(ctx.db, {
      config: ctx.config,
      userId: user.id,
      platform,
      shop,
      display: input.display,
      origin: ctx.origin,
      now: ctx.now,
    });
    return { authUrl };
  },
});

/**
 * GET /api/oauth/{platform}/callback: checks the state (single use, this
 * user's, unexpired) and the provider's signature, then stores the credential.
 * Throws OAuthCallbackError with a sentence for the creator when anything is off.
 */
export const completeOAuthConnection = defineProcedure({
  name: "completeOAuthConnection",
  access: "user",
  input: z.object({ platform: z.string().trim().max(40), query: z.instanceof(URLSearchParams) }),
  run: ({ input, user, ctx }) =>
    completeOAuth(ctx.db, {
      config: ctx.config,
      userId: user.id,
      platformId: input.platform,
      params: input.query,
      now: ctx.now,
    }),
});

/**
 * The /integrations screen: every platform with its state for this creator,
 * and plain links to the provider for Connect without JavaScript (Shopify:
 * for the store asked for with ?connect=shopify&shop=, or the store already on
 * file when it needs reconnecting).
 */
export const integrationsScreen = defineProcedure({
  name: "integrationsScreen",
  access: "user",
  input: z.object({ connect: z.string().max(40).optional(), shop: z.string().max(200).optional() }),
  async run({ input, user, ctx }) {
    const connections = await platformConnections(ctx.db, user.id);
    const oauth = shopifyOAuthConfigured(ctx.config);
    const connectLinks: Partial<Record<PlatformId, string>> = {};
    let shopError: string | null = null;
    if (oauth) {
      const shopify = connections.find((c) => c.platform === "shopify");
      const asked =
        input.connect === "shopify" && input.shop ? normalizeShopDomain(input.shop) : null;
      if (input.connect === "shopify" && input.shop && !asked) shopError = INVALID_SHOP_DOMAIN;
      const shop =
        asked ??
        (shopify?.integration && !shopify.isActive ? shopify.integration.shopDomain : null);
      if (shop && (await shopifyStoreHolder(ctx.db, { shop, exceptUserId: user.id }))) {
        shopError = storeTakenText(shop);
      } else if (shop) {
        connectLinks.shopify = await startOAuth(ctx.db, {
          config: ctx.config,
          userId: user.id,
          platform: getPlatform("shopify"),
          shop,
          display: "page",
          origin: ctx.origin,
          now: ctx.now,
        });
      }
    }
    const releases = await recentModelReleases(ctx.db, user.id);
    const undelivered = await undeliveredShopifySales(ctx.db, user.id);
    return {
      shopifyUndelivered: undelivered.count > 0 ? undelivered : null,
      shopifyOAuth: oauth,
      shopError,
      connectLinks,
      modelReleases: releases,
      platforms: connections.map((connection) => ({
        platform: connection.platform,
        isActive: connection.isActive,
        integration: connection.integration
          ? {
              apiKeyLast4: connection.integration.apiKeyLast4,
              method: connection.integration.method,
              walletAddress: connection.integration.walletAddress,
              shopDomain: connection.integration.shopDomain,
              accountName: connection.integration.accountName,
              isActive: connection.integration.isActive,
              lastError: connection.integration.lastError,
            }
          : null,
      })),
    };
  },
});

/** The platforms the publishing forms offer, with whether each is usable now (for the dashboard's loader). */
export const publishingPlatforms = defineProcedure({
  name: "publishingPlatforms",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    const connections = await platformConnections(ctx.db, user.id);
    return connections.map(({ platform, isActive }) => ({
      id: platform,
      name: getPlatform(platform).name,
      connected: isActive,
      closed: Boolean(getPlatform(platform).closed),
    }));
  },
});
