import type { AppLoadContext } from "@remix-run/node";
import { invoke } from "~/infra/procedure.server";
import { countMarketplaceViews } from "~/features/market/catalog/procedures.server";
import type { HttpAppOptions } from "~/web/http-app.server";
import { createHttpApp } from "~/web/http-app.server";
import { isFreshVisit } from "~/web/fresh-view.server";
import type { PageNotes, PageVisit } from "~/web/visitor-page-cache.server";
import { visitCallContext } from "~/web/request-context.server";
import { featureTies } from "~/boot/studio-ties.server";

/**
 * The site's HTTP app with what the edge cannot know by itself: a marketplace
 * page served from the visitors' cache still counts its listings as viewed by
 * the visitor it is served to (when it is a fresh view, as a rendered page would);
 * every request carries the features' ties to each other.
 */
export function createSiteApp(options: Omit<HttpAppOptions, "replayPageNotes" | "ties">) {
  return createHttpApp({
    ...options,
    ties: featureTies(),
    replayPageNotes: replayMarketplaceViews,
  });
}

export async function replayMarketplaceViews(
  notes: PageNotes,
  visit: PageVisit,
  context: AppLoadContext,
) {
  if (!notes.shownListings?.length) return;
  // A visit without a Referer is fresh: its address (the proxy's say on host and scheme) is not needed.
  const referer = visit.header("Referer");
  if (referer !== null && !isFreshVisit(visit.url, referer)) return;
  await invoke(
    countMarketplaceViews,
    null,
    { listingIds: notes.shownListings },
    visitCallContext(visit, context),
  );
}
