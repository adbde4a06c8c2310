import { getDb } from "~/infra/db.server";
import { flushListingViews } from "~/features/market/analytics/listing-view-counts.server";
import { loader as marketplacePage } from "~/routes/_market+/marketplace";
import { replayMarketplaceViews } from "~/boot/site-app.server";
import { visitorPageCache } from "~/web/visitor-page-cache.server";
import { CACHED_VISITOR_PAGES } from "~/web/http-app.server";
import { callRoute } from "#tests/setup/requests";
import { rowWhere } from "./rows-where";

/** Listing views over the test database (vitest only). */

/** The listing's stored view count. */
export async function viewCountOf(listingId: string): Promise<number> {
  const { view_count } = await rowWhere("listings", "view_count", "id", listingId);
  return view_count;
}

/** The listing's view count once the views noted so far are written, as the next batch would. */
export async function flushedViewCount(listingId: string): Promise<number> {
  await flushListingViews(getDb());
  return viewCountOf(listingId);
}

/**
 * The marketplace route's loader, answering as the page would (its data as
 * text/html), behind the real visitors' page cache that replays the views of
 * the visitors it serves.
 */
export function cachedMarketplacePage() {
  return visitorPageCache(
    async (request, context) => {
      const response = await callRoute(marketplacePage, request, {}, context);
      return new Response(JSON.stringify(await response.json()), {
        headers: { "Content-Type": "text/html" },
      });
    },
    { ttlMs: 60_000, pages: CACHED_VISITOR_PAGES, replay: replayMarketplaceViews },
  );
}
