import { deriveKey } from "~/infra/keys.server";
import {
  recordListingViews,
  viewDay,
  visitorHash,
} from "~/features/market/marketplace-search.server";
import type { DB } from "~/infra/db.server";

/** Who is looking, as the call tells: the signed-in user, else the client address and user agent. */
export interface ListingVisit {
  user: { id: string } | null;
  clientIp: string;
  userAgent: string;
  now: Date;
}

/** Who is looking, for the once-a-day counts: the signed-in user, else the address with the user agent, as a keyed hash of the day. */
export function visitorOf(visit: ListingVisit): { userId: string | null; visitorHash: string } {
  const { user } = visit;
  const visitor = user
    ? { userId: user.id }
    : { clientIp: visit.clientIp, userAgent: visit.userAgent };
  return {
    userId: user?.id ?? null,
    visitorHash: visitorHash(deriveKey("listing-views"), visitor, viewDay(visit.now)),
  };
}

/** Each listing shown counts once per visitor and day: the signed-in user, else the address with the user agent, as a keyed hash. */
export async function countListingViews(
  db: DB,
  visit: ListingVisit,
  listingIds: string[],
): Promise<void> {
  await recordListingViews(db, listingIds, visitorOf(visit), visit.now);
}
