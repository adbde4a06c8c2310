import crypto from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { creatorPublishingExport } from "~/features/publishing/creator-export.server";
import { signedMediaUrl } from "~/infra/signed-urls.server";
import type { UserRow } from "#db/schema";
import { defineProcedure } from "~/infra/procedure.server";
import type { CallContext } from "~/infra/call-context.server";
import { badRequest, forbidden, notFound, unauthorized } from "~/infra/errors.server";
import { verifyShopifyWebhook } from "~/infra/shopify/shopify-webhooks.server";
import {
  handleShopifyWebhook,
  isFreshShopifyDelivery,
  isShopifyWebhookTopic,
  readShopifyWebhookBody,
} from "~/features/publishing/shopify-webhooks.server";
import { getFileStore } from "~/infra/file-store.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import { findPlatform, getPlatform, isPlatformId, MARKETPLACE_ID, PLATFORM_IDS, PLATFORMS } from "~/features/publishing/platforms";
import type { Platform, PlatformId } from "~/features/publishing/platforms";
import { manualIntegrationSchema, launchSchema, modelReleaseFields, postSchema, signatureMatchesName } from "~/features/publishing/schemas";
import {
  adoptUploadedRelease,
  findModelRelease,
  MAX_RELEASE_BYTES,
  modelReleaseJson,
  recentModelReleases,
  signModelRelease,
} from "~/features/publishing/model-releases.server";
import { receiveFileUpload } from "~/infra/uploads/receive-upload.server";
import { sweepScratchSoon } from "~/infra/uploads/scratch-sweep.server";
import { nativeSize } from "~/features/publishing/stock-readiness.server";
import { stockSizeRefusal } from "~/features/publishing/connectors/stock-submission.server";
import { estimatedEarnings, estimatedViews, PUBLISH_WAIT_MS } from "~/features/publishing/types";
import type { PublicationStatus } from "~/features/publishing/types";
import { INVALID_SHOP_DOMAIN, normalizeShopDomain } from "~/lib/shop-domain";
import { DEFAULT_PRICE, styleName, suggestedPrice } from "~/lib/styles";
import { centsToPriceString } from "~/lib/money";
import { defaultListingDescription, defaultListingTitle } from "~/features/market/listing-schema";
import { activeListingForStylizedImage, ownStylizedImage, parseTags } from "~/features/market/lends.server";
import {
  disconnectIntegration,
  integrationJson,
  integrationList,
  platformConnections,
  saveManualIntegration,
  findIntegration,
  shopifyStoreHolder,
  storeTakenText,
} from "~/features/publishing/integrations.server";
import { checkSftpConnection, sftpServerFor } from "~/features/publishing/sftp-connections.server";
import { countIntegrationCheck } from "~/features/publishing/integration-checks.server";
import { stockSubmissionBlocker } from "~/features/publishing/stock-readiness.server";
import {
  authUrlFor,
  completeOAuth,
  shopifyOAuthConfigured,
  startOAuth,
  verifyShopifyToken,
} from "~/features/publishing/oauth-connections.server";
import type { PublicationJson, ShownPublication } from "~/features/publishing/publications.server";
import {
  findPublication,
  isDone,
  publicationJson,
  publicationsOfImage,
  publishBlocker,
  requestPublications,
  verifyPublicationDownload,
  waitForPublications,
} from "~/features/publishing/publications.server";

/**
 * Publishing and integrations: each
 * procedure serves both the /api route and the screens.
 */

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
      value && typeof value === "object" && "platform" in value && typeof value.platform === "string"
        ? { ...value, platform: value.platform.toLowerCase() }
        : value,
    manualIntegrationSchema,
  ),
  async run({ input, user, ctx }) {
    const platform = getPlatform(input.platform);
    const checksShopify = input.platform === "shopify" && Boolean(input.shopDomain);
    const checksSftp = platform.capability === "sftpSubmission" && Boolean(input.username);
    // Each check with the vendor counts against the creator's limit, so saving is no password oracle.
    if (checksShopify || checksSftp) countIntegrationCheck(ctx.now, user.id);
    if (checksShopify && input.shopDomain) {
      await verifyShopifyToken(input.shopDomain, input.apiKey);
    }
    // An SFTP connection is saved only once a real sign-in with it worked (against the host key seen before, if any).
    let hostKey: string | null = null;
    if (checksSftp && input.username) {
      const existing = await findIntegration(ctx.db, user.id, platform.id);
      const checked = await checkSftpConnection({
        platform,
        server: sftpServerFor(platform, ctx.config),
        username: input.username,
        password: input.apiKey,
        pinnedHostKey: existing?.host_key ?? null,
      });
      hostKey = checked.hostKey;
    }
    const row = await saveManualIntegration(ctx.db, { userId: user.id, input, hostKey, now: ctx.now });
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
    if (input.platform === MARKETPLACE_ID) throw badRequest(`${getPlatform(MARKETPLACE_ID).name} is always connected`);
    const removed = await disconnectIntegration(ctx.db, { userId: user.id, platform: input.platform });
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
      throw badRequest("Please enter your store's myshopify.com domain, e.g. my-store.myshopify.com", {
        shop: ["Please enter your store's myshopify.com domain, e.g. my-store.myshopify.com"],
      });
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
    completeOAuth(ctx.db, { config: ctx.config, userId: user.id, platformId: input.platform, params: input.query, now: ctx.now }),
});

/**
 * POST /api/webhooks/shopify: every webhook of the Shopify app (one URL; the
 * topic comes in X-Shopify-Topic). The raw body's HMAC (X-Shopify-Hmac-Sha256)
 * is checked against the app's client secret before anything is read from it:
 * 401 when it is missing or wrong. A signed body that is not a JSON object is
 * a 400; a signed topic the app does not subscribe to is acknowledged and ignored.
 * The headers are not signed, so nothing in them is taken on trust: the store
 * is the one the body names (400 when X-Shopify-Shop-Domain names another),
 * the body must have its topic's shape (400 otherwise), a delivery triggered
 * more than a few minutes ago (X-Shopify-Triggered-At) is acknowledged but
 * not acted on, and a body already acted on is not acted on again whatever
 * its webhook id.
 */
export const receiveShopifyWebhook = defineProcedure({
  name: "receiveShopifyWebhook",
  access: "public",
  input: z.object({
    payload: z.custom<Buffer>((value) => Buffer.isBuffer(value)),
    hmac: z.string().optional(),
    topic: z.string().optional(),
    shop: z.string().optional(),
    webhookId: z.string().max(255).optional(),
    triggeredAt: z.string().max(100).optional(),
  }),
  async run({ input, ctx }) {
    const secret = ctx.config.SHOPIFY_CLIENT_SECRET;
    if (!secret) throw notFound("Shopify webhooks are not configured");
    if (!verifyShopifyWebhook(input.payload, input.hmac, secret)) throw unauthorized("Invalid webhook signature");
    let body: unknown;
    try {
      body = JSON.parse(input.payload.toString("utf8"));
    } catch {
      throw badRequest("Malformed JSON body");
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw badRequest("The JSON body must be an object");
    if (!isShopifyWebhookTopic(input.topic)) return { received: true, outcome: "ignored" };
    const topic = input.topic;
    const read = readShopifyWebhookBody(topic, body);
    if (!read) throw badRequest(`The body is not a ${topic} payload from Shopify`);
    const { shop } = read;
    if (input.shop !== undefined && input.shop.trim().toLowerCase() !== shop) {
      throw badRequest("X-Shopify-Shop-Domain does not name the store in the signed body");
    }
    const triggeredAt = input.triggeredAt ? new Date(input.triggeredAt) : null;
    if (!triggeredAt || Number.isNaN(triggeredAt.getTime())) {
      throw badRequest("X-Shopify-Triggered-At must be the time the webhook was triggered");
    }
    if (!isFreshShopifyDelivery(triggeredAt, ctx.now)) {
      console.warn(
        `Shopify webhook ${topic} for ${shop} triggered at ${triggeredAt.toISOString()} arrived too late and was not acted on`,
      );
      return { received: true, outcome: "ignored: stale delivery" };
    }
    const bodySha256 = crypto.createHash("sha256").update(input.payload).digest("hex");
    const webhookId = input.webhookId || `sha256:${bodySha256}`;
    const result = await handleShopifyWebhook(ctx.db, { topic, shop, webhookId, bodySha256, now: ctx.now });
    // The record of compliance requests (also kept in shopify_webhook_receipts).
    console.info(`Shopify webhook ${result.topic} for ${result.shop}${result.duplicate ? " (again)" : ""}: ${result.outcome}`);
    return { received: true, outcome: result.outcome };
  },
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
      const asked = input.connect === "shopify" && input.shop ? normalizeShopDomain(input.shop) : null;
      if (input.connect === "shopify" && input.shop && !asked) shopError = INVALID_SHOP_DOMAIN;
      const shop = asked ?? (shopify?.integration && !shopify.isActive ? shopify.integration.shopDomain : null);
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
    return {
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

/** The creator's own stylized image, or a 404. */
async function ownImage(ctx: CallContext, user: UserRow, imageId: string) {
  const image = await ownStylizedImage(ctx.db, user.id, imageId);
  if (!image) throw notFound("Stylized image not found");
  return image;
}

async function completedImage(ctx: CallContext, user: UserRow, imageId: string) {
  const image = await ownImage(ctx, user, imageId);
  if (image.status !== "completed" || !image.file_key) {
    throw badRequest("Only a completed stylized image can be published", { imageId: ["This image is not ready yet"] });
  }
  return image;
}

export interface PlatformResult extends PublicationJson {
  authUrl: string | null;
  /** A stock agency's row (Adobe Stock): the image's model release PDF (owner only), or null while it has none. */
  modelReleaseUrl?: string | null;
}

/** Each publication as the API shows it, with a link to reconnect where the platform needs authorizing again. */
async function platformResults(ctx: CallContext, user: UserRow, rows: ShownPublication[]): Promise<PlatformResult[]> {
  const results: PlatformResult[] = [];
  for (const row of rows) {
    const json = publicationJson(row, ctx.origin);
    const authUrl =
      json.status === "needs_auth"
        ? await authUrlFor(ctx.db, { config: ctx.config, userId: user.id, platform: getPlatform(json.id), origin: ctx.origin, now: ctx.now })
        : null;
    const stock = getPlatform(json.id).capability === "sftpSubmission";
    const release = stock ? await findModelRelease(ctx.db, user.id, row.stylized_image_id) : undefined;
    results.push({ ...json, authUrl, ...(stock ? { modelReleaseUrl: release ? modelReleaseJson(release).downloadUrl : null } : {}) });
  }
  return results;
}

/** A launch's counts and estimates (the launch answer and the launch result page show the same). */
function launchFigures(platforms: PlatformResult[], priceCents: number) {
  const platformsLaunched = platforms.filter((platform) => isDone(platform.status)).length;
  const viewsGenerated = estimatedViews(platformsLaunched);
  return {
    platformsLaunched,
    viewsGenerated,
    estimatedEarnings: estimatedEarnings(viewsGenerated, priceCents / 100),
    price: centsToPriceString(priceCents),
  };
}

/** Publishes to each platform (jobs), waits a moment for them, and answers each platform's state. */
async function publish(
  ctx: CallContext,
  user: UserRow,
  args: {
    imageId: string;
    platforms: PlatformId[];
    content: { title: string; description: string; priceCents: number; tags: string[]; licensingEnabled: boolean; nftEnabled: boolean };
  },
): Promise<PlatformResult[]> {
  const image = await completedImage(ctx, user, args.imageId);
  const requests = [];
  for (const id of args.platforms) {
    const platform = getPlatform(id);
    let blocked = await publishBlocker(ctx.db, user.id, platform);
    // A stock agency's file needs a model release and 4 MP the engine really made: refused here with the sentence.
    const refusal = blocked ? null : await stockSubmissionBlocker(ctx.db, user.id, image, platform);
    if (refusal) blocked = { status: "failed", error: refusal };
    requests.push({ platform: id, blocked });
  }
  // Publishing writes files (listing copies, kits, packages): refused while the volume is nearly full.
  if (requests.some((request) => !request.blocked)) await ensureFreeSpace(ctx.config);
  const rows = await requestPublications(ctx.db, {
    userId: user.id,
    image,
    requests,
    content: args.content,
    origin: ctx.origin,
    now: ctx.now,
    maxQueuedJobs: ctx.config.PUBLISH_JOBS_PER_CREATOR,
  });
  const settled = await waitForPublications(
    ctx.db,
    rows.map((row) => row.id),
    { timeoutMs: PUBLISH_WAIT_MS },
  );
  return platformResults(ctx, user, settled);
}

/** POST /api/marketplace/launch and the dashboard's launch form. */
export const launchMarketing = defineProcedure({
  name: "launchMarketing",
  access: "user",
  input: launchSchema,
  async run({ input, user, ctx }) {
    const image = await completedImage(ctx, user, input.imageId);
    const priceCents = Math.round(input.price * 100);
    const platforms = await publish(ctx, user, {
      imageId: image.id,
      platforms: input.platforms,
      content: {
        title: input.title,
        description: input.description,
        priceCents,
        tags: input.tags,
        licensingEnabled: input.enableLicensing,
        nftEnabled: input.enableNFT,
      },
    });
    return {
      imageId: image.id,
      ...launchFigures(platforms, priceCents),
      estimate: true as const,
      platforms,
    };
  },
});

/** POST /api/marketplace/post and the list-for-sale dialog. */
export const postToMarketplaces = defineProcedure({
  name: "postToMarketplaces",
  access: "user",
  input: postSchema,
  async run({ input, user, ctx }) {
    const image = await completedImage(ctx, user, input.imageId);
    const listing = await activeListingForStylizedImage(ctx.db, image.id);
    const platforms = await publish(ctx, user, {
      imageId: image.id,
      platforms: input.platforms,
      content: {
        title: input.title,
        description: input.description,
        priceCents: Math.round(input.price * 100),
        tags: listing ? parseTags(listing.tags) : [styleName(image.style)],
        licensingEnabled: listing ? listing.licensing_enabled === 1 : image.licensing_enabled === 1,
        nftEnabled: listing ? listing.nft_enabled === 1 : image.nft_enabled === 1,
      },
    });
    return {
      results: platforms.map((platform) => ({
        success: !failedStatus(platform.status),
        platform: platform.id,
        name: platform.name,
        status: platform.status,
        ...(platform.url ? { url: platform.url } : {}),
        ...(platform.authUrl ? { authUrl: platform.authUrl } : {}),
        ...(platform.error && failedStatus(platform.status) ? { error: platform.error } : {}),
        ...(platform.note ? { note: platform.note } : {}),
        ...(platform.modelReleaseUrl !== undefined ? { modelReleaseUrl: platform.modelReleaseUrl } : {}),
      })),
    };
  },
});

function failedStatus(status: PublicationStatus): boolean {
  return status === "failed" || status === "needs_auth";
}

/** A stylized image's state on every platform it was sent to (the launch result view, the dashboard). */
export const imagePublications = defineProcedure({
  name: "imagePublications",
  access: "user",
  input: z.object({ imageId: z.string().trim().min(1).max(100) }),
  async run({ input, user, ctx }) {
    const image = await ownImage(ctx, user, input.imageId);
    const rows = await publicationsOfImage(ctx.db, user.id, image.id);
    const platforms = await platformResults(ctx, user, rows);
    return { imageId: image.id, style: image.style, platforms };
  },
});

/**
 * The launch result page (after a launch without JavaScript): the launched
 * platforms' current states, with the same counts and estimates as the launch.
 */
export const launchResult = defineProcedure({
  name: "launchResult",
  access: "user",
  input: z.object({
    imageId: z.string().trim().min(1).max(100),
    platforms: z
      .string()
      .max(400)
      .transform((text) => text.split(",").filter(isPlatformId)),
  }),
  async run({ input, user, ctx }) {
    const state = await imagePublications.run({ input: { imageId: input.imageId }, user, ctx });
    const platforms = state.platforms.filter((platform) => input.platforms.includes(platform.id));
    const rows = await publicationsOfImage(ctx.db, user.id, input.imageId);
    const priceCents = rows.find((row) => input.platforms.includes(row.platform as PlatformId))?.price_cents ?? DEFAULT_PRICE * 100;
    return {
      imageId: input.imageId,
      ...launchFigures(platforms, priceCents),
      platforms,
    };
  },
});

/** What the launch form and the list-for-sale dialog start from. */
export const publishFormDefaults = defineProcedure({
  name: "publishFormDefaults",
  access: "user",
  input: z.object({ imageId: z.string().trim().min(1).max(100) }),
  async run({ input, user, ctx }) {
    const image = await ownImage(ctx, user, input.imageId);
    const listing = await activeListingForStylizedImage(ctx.db, image.id);
    const connections = await platformConnections(ctx.db, user.id);
    const name = styleName(image.style);
    return {
      imageId: image.id,
      style: image.style,
      ready: image.status === "completed" && Boolean(image.file_key),
      /** The image the forms put on sale (signed, expiring), shown beside them; null until it is made. */
      previewUrl:
        image.status === "completed" && (image.optimized_file_key ?? image.file_key)
          ? signedMediaUrl((image.optimized_file_key ?? image.file_key)!)
          : null,
      title: listing?.title ?? defaultListingTitle(name),
      description: listing?.description ?? defaultListingDescription(name),
      price: centsToPriceString(listing?.price_cents ?? image.price_cents ?? suggestedPrice(image.style) * 100),
      licensingEnabled: listing ? listing.licensing_enabled === 1 : image.licensing_enabled === 1,
      nftEnabled: listing ? listing.nft_enabled === 1 : image.nft_enabled === 1,
      platforms: PLATFORMS.map((platform) => {
        const connection = connections.find((c) => c.platform === platform.id);
        return {
          id: platform.id,
          name: platform.name,
          connected: connection?.isActive ?? false,
          closed: Boolean(platform.closed),
        };
      }),
    };
  },
});

/** GET /api/publications/{id}/download?exp&sig: the owner's kit or package, through a signed, expiring link. */
export const publicationDownload = defineProcedure({
  name: "publicationDownload",
  access: "user",
  // exp and sig are the signed link's query parameters; a missing or malformed one fails the signature check (403).
  input: z.object({ id: z.string().trim().min(1).max(100), exp: z.string().optional(), sig: z.string().optional() }),
  async run({ input, user, ctx }) {
    const row = await findPublication(ctx.db, user.id, input.id);
    if (!row || !row.artifact_key || (row.status !== "ready_to_mint" && row.status !== "export_ready")) {
      throw notFound("Download not found");
    }
    if (!verifyPublicationDownload(input.id, user.id, { exp: input.exp, sig: input.sig }, ctx.now.getTime())) {
      throw forbidden("This download link is invalid or has expired");
    }
    const store = getFileStore();
    if (!(await store.exists(row.artifact_key))) throw notFound("Download not found");
    const platform: Platform | undefined = findPlatform(row.platform);
    const kind = row.status === "ready_to_mint" ? "mint-kit" : "export-package";
    const slug = row.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "image";
    return {
      row,
      fileName: `${slug}-${platform?.id ?? "platform"}-${kind}.zip`,
      size: await store.size(row.artifact_key),
      stream: () => store.stream(row.artifact_key!),
    };
  },
});

/** The form field an uploaded release arrives in (multipart/form-data). */
export const RELEASE_FIELD = "release";
const RELEASE_UPLOAD_MESSAGES = {
  tooLarge: "Please select a PDF smaller than 10 MB.",
  missing: `Choose the signed release to upload (a PDF in the form field named "${RELEASE_FIELD}").`,
  notMultipart: `Send the release as multipart/form-data, in a form field named "${RELEASE_FIELD}".`,
};

const imageIdInput = z.object({ id: z.string().trim().min(1).max(100) });

/**
 * The release page: the image's model release (null until there is one), whether Adobe
 * Stock would take the image's size, and what the form starts from.
 */
export const modelReleaseState = defineProcedure({
  name: "modelReleaseState",
  access: "user",
  input: imageIdInput,
  async run({ input, user, ctx }) {
    const image = await ownImage(ctx, user, input.id);
    const release = await findModelRelease(ctx.db, user.id, image.id);
    const ready = image.status === "completed" && Boolean(image.file_key);
    return {
      imageId: image.id,
      style: image.style,
      ready,
      previewUrl: ready ? signedMediaUrl(image.file_key!) : null,
      release: release ? modelReleaseJson(release) : null,
      /** Why Adobe Stock would refuse the image's size (null when it is big enough). */
      sizeRefusal: ready ? stockSizeRefusal(nativeSize(image)) : null,
      suggestedName: [user.first_name, user.last_name].filter(Boolean).join(" "),
      today: ctx.now.toISOString().slice(0, 10),
    };
  },
});

/** POST /api/token-stylized-images/{id}/model-release and the release page's form: the creator signs a release for themselves. */
export const signModelReleaseProcedure = defineProcedure({
  name: "signModelRelease",
  access: "user",
  input: modelReleaseFields.extend(imageIdInput.shape).superRefine(signatureMatchesName),
  async run({ input, user, ctx }) {
    const image = await completedImage(ctx, user, input.id);
    if (input.signedOn > ctx.now.toISOString().slice(0, 10)) {
      throw badRequest("The date signed cannot be in the future", { signedOn: ["The date signed cannot be in the future"] });
    }
    await ensureFreeSpace(ctx.config);
    const row = await signModelRelease(ctx.db, getFileStore(), {
      userId: user.id,
      accountEmail: user.email,
      image,
      input: { modelName: input.modelName, signedOn: input.signedOn, signature: input.signature, drawnSignature: input.drawnSignature },
      now: ctx.now,
    });
    return modelReleaseJson(row);
  },
});

/** PUT /api/token-stylized-images/{id}/model-release (multipart, a PDF in the field `release`) and the release page's upload form. */
export const uploadModelRelease = defineProcedure({
  name: "uploadModelRelease",
  access: "user",
  input: imageIdInput,
  async run({ input, user, ctx }) {
    if (!ctx.upload) throw new Error("uploadModelRelease is called with the request body (ctx.upload)");
    const image = await completedImage(ctx, user, input.id);
    const store = getFileStore();
    sweepScratchSoon(path.join(store.root, "tmp"));
    const upload = await receiveFileUpload(ctx.upload, {
      field: RELEASE_FIELD,
      maxFileBytes: MAX_RELEASE_BYTES,
      scratchPath: () => store.scratchPath(),
      messages: RELEASE_UPLOAD_MESSAGES,
      admit: () => ensureFreeSpace(ctx.config),
    });
    const row = await adoptUploadedRelease(ctx.db, store, { userId: user.id, image, path: upload.path, now: ctx.now });
    return modelReleaseJson(row);
  },
});

/** GET /api/token-stylized-images/{id}/model-release: the release's PDF, for its owner only. */
export const modelReleaseDownload = defineProcedure({
  name: "modelReleaseDownload",
  access: "user",
  input: imageIdInput,
  async run({ input, user, ctx }) {
    const image = await ownImage(ctx, user, input.id);
    const release = await findModelRelease(ctx.db, user.id, image.id);
    const store = getFileStore();
    if (!release || !(await store.exists(release.file_key))) throw notFound("This image has no model release yet");
    return {
      fileName: `model-release-${image.id.replace(/[^A-Za-z0-9_-]/g, "")}.pdf`,
      size: await store.size(release.file_key),
      stream: () => store.stream(release.file_key),
    };
  },
});

// What other features use of this one; they reach it only through this file.
export { removePublishingArtifacts } from "~/features/publishing/publications.server";
export { OAuthCallbackError } from "~/features/publishing/oauth-connections.server";

/**
 * For the caller's data export (run by the export job): the platforms they
 * connected, by name only, and the kits and packages prepared for them.
 */
export const creatorPublishingExportProcedure = defineProcedure({
  name: "creatorPublishingExport",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => creatorPublishingExport(ctx.db, user.id),
});
export { cancelPublicationsOfErasedCreator, erasePublishingDataOf } from "~/features/publishing/creator-erasure.server";
