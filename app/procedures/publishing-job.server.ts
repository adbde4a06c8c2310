import type { JobHandler } from "~/server/jobs/job-worker.server";
import { invoke } from "~/server/procedure.server";
import { getConfig } from "~/server/config.server";
import type { FileStore } from "~/server/file-store.server";
import type { FetchLike } from "~/server/shopify/shopify-errors.server";
import { marketplaceListingUrl } from "~/services/listings.server";
import type { PublishJobPayload } from "~/services/publications.server";
import type { MarketplaceLister } from "~/services/publish-job.server";
import { publishJobHandler as makeHandler, PUBLISH_JOB } from "~/services/publish-job.server";
import { listOnMarketplace } from "./market.server";

/**
 * The publishing job as the worker registers it: `{ [PUBLISH_JOB]: publishJobHandler() }`.
 * The own marketplace is listed through the selling side's `listOnMarketplace`
 * procedure, called for the job's creator (so its access rules apply too).
 */
export const listThroughProcedure: MarketplaceLister = async ({ db, user, request, now }) => {
  const { listing } = await invoke(
    listOnMarketplace,
    user,
    {
      stylizedImageId: request.image.id,
      title: request.content.title,
      description: request.content.description,
      price: request.content.priceCents / 100,
      tags: request.content.tags,
      licensingEnabled: request.content.licensingEnabled,
      nftEnabled: request.content.nftEnabled,
    },
    {
      db,
      config: getConfig(),
      request: new Request(new URL("/api/marketplace/launch", request.origin)),
      clientIp: "job",
      now,
    },
  );
  return { listingId: listing.id, url: marketplaceListingUrl(request.origin, listing.id) };
};

export function publishJobHandler(
  deps: { store?: FileStore; fetch?: FetchLike; ensureSpace?: () => Promise<void> } = {},
): JobHandler<PublishJobPayload> {
  return makeHandler({ ...deps, listOnMarketplace: listThroughProcedure });
}

export { PUBLISH_JOB };
