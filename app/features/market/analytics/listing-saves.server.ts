import type { DB } from "~/infra/db.server";
import { MAX_SAVED_LISTINGS } from "~/lib/limits";
import { countOncePerVisitorDay } from "~/features/market/analytics/analytics.server";

/**
 * Saves of a listing, for its creator's analytics (docs/decisions/099). A
 * saved list lives only in the buyer's signed cookie, so a save is counted
 * when it happens, as an add-to-cart is: on the listing's day row
 * (listing_days.saves, a count), once per visitor, listing and UTC day. The
 * visitor is a keyed hash of the day (listing_saves, kept two days, then
 * forgotten by forgetOldVisitorDays): nothing says who saved.
 */

/**
 * Listings one visitor's saves count for on one day (a full saved list);
 * past it, that visitor's saves count nothing until the next day.
 */
export const SAVES_COUNTED_PER_VISITOR_DAY = MAX_SAVED_LISTINGS;

/**
 * Counts a save of a live listing, once per visitor, listing and UTC day,
 * never the creator's own, and at most SAVES_COUNTED_PER_VISITOR_DAY listings
 * per visitor and day. True when it counted.
 */
export function recordListingSave(
  db: DB,
  listingId: string,
  viewer: { userId: string | null; visitorHash: string },
  now: Date,
): Promise<boolean> {
  return countOncePerVisitorDay(
    db,
    { visitors: "listing_saves", counter: "saves", cap: SAVES_COUNTED_PER_VISITOR_DAY },
    listingId,
    viewer,
    now,
  );
}
