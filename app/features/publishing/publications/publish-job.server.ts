import { z } from "zod";
import type { UserRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { HttpError } from "~/infra/errors.server";
import type { JobHandler, JobRunContext } from "~/infra/jobs/job-worker.server";
import type { PublishRequest } from "~/features/publishing/connectors/connector.server";
import { PermanentPublishError } from "~/features/publishing/connectors/connector.server";
import { connectorFor } from "~/features/publishing/connectors/connector-registry.server";
import type { MarketplaceListing } from "~/features/publishing/connectors/marketplace-connector.server";
import type { FetchLike } from "~/infra/shopify/shopify-errors.server";
import {
  ShopifyAuthError,
  ShopifyRequestError,
  ShopifyTransientError,
} from "~/infra/shopify/shopify-errors.server";
import { CryptoBoxError } from "~/infra/crypto-box.server";
import { SftpError } from "~/infra/sftp/sftp-errors.server";
import type { SftpConnect } from "~/infra/sftp/sftp-client.server";
import { sftpServerFor } from "~/features/publishing/integrations/sftp-connections.server";
import {
  nativeSize,
  stockSubmissionBlocker,
} from "~/features/publishing/publications/stock-readiness.server";
import { getConfig } from "~/infra/config.server";
import { publicMediaUrl } from "~/infra/signed-urls.server";
import type { MediaPolling } from "~/infra/shopify/shopify-products.server";
import type { ShopifyApp } from "~/features/publishing/shopify/shopify-tokens.server";
import { shopifyTokenSource } from "~/features/publishing/shopify/shopify-tokens.server";
import { findPlatform, needsConnection } from "~/features/publishing/platforms";
import {
  activeListingForStylizedImage,
  marketplaceListingUrl,
  sellableFileKey,
} from "~/features/market/public.server";
import {
  markIntegrationNeedsAuth,
  openIntegration,
} from "~/features/publishing/integrations/integrations.server";
import { findUserById } from "~/features/accounts/public.server";
import { saleConsentOf } from "~/features/market/public.server";
import type { PublishJobPayload } from "~/features/publishing/publications/publications.server";
import {
  markPublicationFailed,
  notePublicationRetry,
  PUBLISH_JOB,
  publicationContent,
  recordExternalId,
  recordPublicationOutcome,
} from "~/features/publishing/publications/publications.server";

/**
 * The job that publishes one stylized image to one platform: it loads the
 * row, opens the creator's credential, runs the platform's connector and
 * records the outcome. Errors a retry may cure (network, 429, 5xx) are tried
 * again with backoff by the worker; the rest fail the row with a sentence the
 * creator can read.
 */

export const publishJobPayload = z.object({
  publicationId: z.string().min(1),
  revision: z.number().int().min(1),
  origin: z.url(),
});

/** Lists the image on the own marketplace through the selling side's `listOnMarketplace`. */
export type MarketplaceLister = (args: {
  db: DB;
  user: UserRow;
  request: PublishRequest;
  now: Date;
}) => Promise<MarketplaceListing>;

export interface PublishJobDeps {
  listOnMarketplace: MarketplaceLister;
  /** The store the kits, packages and listing copies are written to. */
  store: FileStore;
  fetch?: FetchLike;
  /** Throws (a 507 HttpError) when the data volume has no room for what publishing writes; the attempt is then tried again later. */
  ensureSpace?: () => Promise<void>;
  /** The Shopify app's client id and secret (to renew expiring tokens); from the config unless given. */
  shopifyApp?: ShopifyApp;
  /** How long to wait for Shopify to process a product's image (tests make it quick). */
  shopifyMediaPolling?: MediaPolling;
  /** How SFTP sessions are opened (tests may wrap it). */
  sftpConnect?: SftpConnect;
}

/** A message for the creator: ours and the platforms' own words, never internals such as file paths. */
export function publishErrorMessage(error: unknown): string {
  if (
    error instanceof PermanentPublishError ||
    error instanceof ShopifyAuthError ||
    error instanceof ShopifyRequestError ||
    error instanceof ShopifyTransientError ||
    error instanceof SftpError ||
    error instanceof HttpError
  ) {
    return error.message;
  }
  if (error instanceof CryptoBoxError)
    return "The stored connection could not be read; please connect again.";
  if (error instanceof Error && error.name === "JobTimeoutError")
    return "The platform took too long to answer.";
  return "Something went wrong while publishing; please try again.";
}

export async function runPublishJob(
  deps: PublishJobDeps,
  payload: PublishJobPayload,
  context: JobRunContext,
): Promise<void> {
  const db: DB = context.db;
  const store = deps.store;
  const row = await db
    .selectFrom("listing_platforms")
    .selectAll()
    .where("id", "=", payload.publicationId)
    .executeTakeFirst();
  // Gone with its image, or replaced by a newer request: nothing to do.
  if (!row || row.revision !== payload.revision) return;
  const fail = (error: string) =>
    recordPublicationOutcome(db, store, {
      publicationId: row.id,
      revision: row.revision,
      outcome: { status: "failed", error },
      now: context.now(),
    });

  const platform = findPlatform(row.platform);
  if (!platform) return void (await fail("This platform is not supported."));
  if (platform.closed) return void (await fail(platform.closed));

  const image = await db
    .selectFrom("stylized_images")
    .selectAll()
    .where("id", "=", row.stylized_image_id)
    .where("user_id", "=", row.user_id)
    .executeTakeFirst();
  const fileKey = image && image.status === "completed" ? sellableFileKey(image) : null;
  if (!image || !fileKey || !image.file_key)
    return void (await fail("The image is not ready to publish."));
  const user = await findUserById(db, row.user_id);
  if (!user) return;
  if (user.banned) return void (await fail("This account has been suspended."));
  if (user.erased_at) return void (await fail("This account has been deleted."));

  let credential: PublishRequest["credential"] = null;
  let method: string | null = null;
  if (needsConnection(platform)) {
    const opened = await openIntegration(db, row.user_id, platform.id);
    if (!opened) {
      await recordPublicationOutcome(db, store, {
        publicationId: row.id,
        revision: row.revision,
        outcome: { status: "needs_auth", error: `Connect ${platform.name} first.` },
        now: context.now(),
      });
      return;
    }
    credential = {
      secret: opened.secret,
      walletAddress: opened.row.wallet_address,
      shopDomain: opened.row.shop_domain,
      accountName: opened.row.account_name,
      hostKey: opened.row.host_key,
    };
    method = opened.row.method;
  }
  // A product made in another store (the creator connected a different one since) is not updated: a new one is made.
  const externalId =
    row.external_shop && credential?.shopDomain && row.external_shop !== credential.shopDomain
      ? null
      : row.external_id;

  // Only faces that agreed are sold (decision record 085), checked again now.
  const consent = await saleConsentOf(db, image);
  if (!consent.sold) return void (await fail(consent.message));

  // A stock agency's file: a model release and 4 MP the engine made, checked again now.
  const stockRefusal = await stockSubmissionBlocker(db, row.user_id, image, platform);
  if (stockRefusal) return void (await fail(stockRefusal));

  const listing = await activeListingForStylizedImage(db, image.id);
  const request: PublishRequest = {
    publicationId: row.id,
    platform,
    content: publicationContent(row),
    image: {
      id: image.id,
      style: image.style,
      fileKey,
      styledFileKey: image.file_key,
      native: nativeSize(image),
    },
    creator: {
      id: row.user_id,
      name: [user.first_name, user.last_name].filter(Boolean).join(" ") || user.email,
    },
    currency: getConfig().CURRENCY,
    origin: payload.origin,
    credential,
    externalId,
    marketplaceUrl: listing ? marketplaceListingUrl(payload.origin, listing.id) : null,
    marketplaceListing: listing
      ? {
          listingId: listing.id,
          url: marketplaceListingUrl(payload.origin, listing.id),
          previewUrl: publicMediaUrl(listing.preview_key),
        }
      : null,
  };

  const connector = connectorFor(platform, request, {
    async listOnMarketplace(req) {
      try {
        return await deps.listOnMarketplace({ db, user, request: req, now: context.now() });
      } catch (error) {
        if (error instanceof HttpError) throw new PermanentPublishError(error.message);
        throw error;
      }
    },
    async onAuthRejected(req, message) {
      await markIntegrationNeedsAuth(db, {
        userId: row.user_id,
        platform: req.platform.id,
        error: message,
        now: context.now(),
      });
    },
    shopifyTokens: () => {
      if (platform.id !== "shopify" || method !== "oauth") return null;
      const config = getConfig();
      const app = deps.shopifyApp ?? {
        clientId: config.SHOPIFY_CLIENT_ID,
        clientSecret: config.SHOPIFY_CLIENT_SECRET,
      };
      return shopifyTokenSource(db, {
        userId: row.user_id,
        app,
        now: context.now,
        fetch: deps.fetch,
      });
    },
    shopifyMediaPolling: deps.shopifyMediaPolling,
    sftpSubmission: () => ({
      server: sftpServerFor(platform, getConfig()),
      connect: deps.sftpConnect,
    }),
  });

  await deps.ensureSpace?.();
  const outcome = await connector.publish(request, {
    store,
    now: context.now,
    signal: context.signal,
    fetch: deps.fetch,
    onExternalId: (id) =>
      recordExternalId(
        db,
        row.id,
        id,
        platform.id === "shopify" ? (credential?.shopDomain ?? null) : null,
      ),
  });
  await recordPublicationOutcome(db, store, {
    publicationId: row.id,
    revision: row.revision,
    outcome,
    now: context.now(),
  });
}

/** The job handler for PUBLISH_JOB (the worker registers it through app/features/publishing/publications/publishing-job.server.ts). */
export function publishJobHandler(deps: PublishJobDeps): JobHandler<PublishJobPayload> {
  return {
    parse: (payload) => publishJobPayload.parse(payload),
    run: (payload, context) => runPublishJob(deps, payload, context),
    onRetry: (payload, error, context) =>
      notePublicationRetry(context.db, {
        publicationId: payload.publicationId,
        revision: payload.revision,
        error: `${publishErrorMessage(error)} (trying again)`,
        now: context.now(),
      }),
    onFailed: (payload, error, context) =>
      markPublicationFailed(context.db, {
        publicationId: payload.publicationId,
        revision: payload.revision,
        error: publishErrorMessage(error),
        now: context.now(),
      }),
    timeoutMs: 2 * 60_000,
  };
}

export { PUBLISH_JOB };
