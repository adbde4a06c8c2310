import type { AppLoadContext } from "@remix-run/node";
import { invoke } from "~/infra/procedure.server";
import { countMarketplaceViews } from "~/features/market/catalog/procedures.server";
import type { HttpAppOptions } from "~/web/http-app.server";
import { createHttpApp } from "~/web/http-app.server";
import { isFreshView } from "~/web/fresh-view.server";
import type { PageNotes } from "~/web/visitor-page-cache.server";
import { callContext } from "~/web/request-context.server";
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
  request: Request,
  context: AppLoadContext,
) {
  if (!notes.shownListings?.length || !isFreshView(request)) return;
  await invoke(
    countMarketplaceViews,
    null,
    { listingIds: notes.shownListings },
    callContext(request, context),
  );
}
