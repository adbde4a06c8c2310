import { deriveKey } from "~/infra/keys.server";
import { viewDay, visitorHash } from "~/features/market/catalog/marketplace-search.server";
import { noteListingViews } from "~/features/market/analytics/listing-view-counts.server";
import type { DB } from "~/infra/db.server";

/** Who is looking, as the call tells: the signed-in user, else the client's address (IPv4, or an IPv6 /64, as the edge gives it). */
export interface ListingVisit {
  user: { id: string } | null;
  clientIp: string;
  now: Date;
}

/**
 * Who is looking, for the once-a-day counts: the signed-in user, else the
 * client's address, as a keyed hash of the day. Never the User-Agent: a client
 * writes what it likes there, and each new one would be a new visitor.
 */
export function visitorOf(visit: ListingVisit): { userId: string | null; visitorHash: string } {
  const { user } = visit;
  const visitor = user ? { userId: user.id } : { clientIp: visit.clientIp };
  return {
    userId: user?.id ?? null,
    visitorHash: visitorHash(deriveKey("listing-views"), visitor, viewDay(visit.now)),
  };
}

/** Each listing shown counts once per visitor and day (noted now, written with the next batch). */
export function countListingViews(db: DB, visit: ListingVisit, listingIds: string[]): void {
  noteListingViews(db, listingIds, visitorOf(visit), visit.now);
}

/**
 * Days of listing_views, listing_cart_adds and listing_saves kept: today and yesterday. A
 * visitor's hash is of the day, so an older row can never match again;
 * yesterday's stay for a batch of views written just after midnight.
 */
export const VISITOR_DAYS_KEPT = 2;

/** Deletes the visitor rows of the days past VISITOR_DAYS_KEPT (run hourly); the daily counts stay. */
export async function forgetOldVisitorDays(db: DB, now: Date): Promise<void> {
  const oldestKept = viewDay(
    new Date(now.getTime() - (VISITOR_DAYS_KEPT - 1) * 24 * 60 * 60 * 1000),
  );
  await db.deleteFrom("listing_views").where("day", "<", oldestKept).execute();
  await db.deleteFrom("listing_cart_adds").where("day", "<", oldestKept).execute();
  await db.deleteFrom("listing_saves").where("day", "<", oldestKept).execute();
}
