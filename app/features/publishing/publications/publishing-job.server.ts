import type { JobHandler } from "~/infra/jobs/job-worker.server";
import { invoke } from "~/infra/procedure.server";
import { plainContext, type FeatureTies } from "~/infra/call-context.server";
import { marketplaceListingUrl } from "~/features/market/public.server";
import type { PublishJobPayload } from "~/features/publishing/publications/publications.server";
import type {
  MarketplaceLister,
  PublishJobDeps,
} from "~/features/publishing/publications/publish-job.server";
import {
  publishJobHandler as makeHandler,
  PUBLISH_JOB,
} from "~/features/publishing/publications/publish-job.server";
import { listOnMarketplace } from "~/features/market/catalog/creator-listings.procedures.server";

/**
 * The publishing job as the worker registers it: `{ [PUBLISH_JOB]: publishJobHandler() }`.
 * The own marketplace is listed through the selling side's `listOnMarketplace`
 * procedure, called for the job's creator (so its access rules apply too),
 * with a context of the job's own: no client, no body, and the origin the
 * publish request was made at.
 */
export const listThroughProcedure =
  (ties: FeatureTies): MarketplaceLister =>
  async ({ db, user, request: publish, now }) => {
    const { listing } = await invoke(
      listOnMarketplace,
      user,
      {
        stylizedImageId: publish.image.id,
        title: publish.content.title,
        description: publish.content.description,
        price: publish.content.priceCents / 100,
        ...(publish.content.extendedPriceCents != null
          ? { extendedPrice: publish.content.extendedPriceCents / 100 }
          : {}),
        ...(publish.content.exclusivePriceCents != null
          ? { exclusivePrice: publish.content.exclusivePriceCents / 100 }
          : {}),
        tags: publish.content.tags,
        licensingEnabled: publish.content.licensingEnabled,
        nftEnabled: publish.content.nftEnabled,
      },
      plainContext(publish.origin, { db, clientIp: "job", now, ties }),
    );
    if (!listing.previewUrl)
      throw new Error(`Listing ${listing.id} is not active after listing it`);
    return {
      listingId: listing.id,
      url: marketplaceListingUrl(publish.origin, listing.id),
      previewUrl: listing.previewUrl,
    };
  };

export function publishJobHandler({
  ties,
  ...deps
}: Omit<PublishJobDeps, "listOnMarketplace"> & {
  /** What features hand each other (app/boot/studio-ties.server.ts), for the listing procedure's context. */
  ties: FeatureTies;
}): JobHandler<PublishJobPayload> {
  return makeHandler({ ...deps, listOnMarketplace: listThroughProcedure(ties) });
}

export { PUBLISH_JOB };
