import { Link } from "@remix-run/react";
import { LocalDate } from "~/features/admin/components/local-date";
import { SectionCard } from "~/ui/data-table";

/** One active listing the rule "only faces that agreed are sold" would refuse today (publishing's listingsAwaitingConsent). */
export interface ListingAwaitingConsentView {
  listingId: string;
  title: string;
  creatorId: string;
  reason: "other" | "unverified";
  createdAt: string;
}

const REASON_TEXT: Record<ListingAwaitingConsentView["reason"], string> = {
  unverified: "Face not compared: the creator had not verified their face",
  other: "Another person's face, no model release",
};

/**
 * Listings awaiting consent (decision record 085): listed before the rule by creators who had not
 * verified their face, or of another person's face without a release. They stay up; the count
 * heads the list, newest first, each with its reason and a link to its page.
 */
export function ListingsAwaitingConsentSection({
  count,
  listings,
}: {
  count: number;
  listings: readonly ListingAwaitingConsentView[];
}) {
  return (
    <SectionCard
      id="listings-awaiting-consent"
      headingId="listings-awaiting-consent-heading"
      heading="Listings awaiting consent"
      description={
        <p className="text-sm text-slate-600" data-testid="listings-awaiting-consent-summary">
          {count} active {count === 1 ? "listing" : "listings"} would be refused today: only faces
          that agreed are sold. They stay up until you act on them.
        </p>
      }
      className="card mt-8 scroll-mt-24 overflow-hidden"
      testId="admin-listings-awaiting-consent"
    >
      {listings.length === 0 ? (
        <p className="p-5 text-sm text-slate-600">Every active listing shows a face that agreed.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {listings.map((listing) => (
            <li key={listing.listingId} className="flex flex-col gap-1 p-5">
              <Link
                to={`/marketplace/${encodeURIComponent(listing.listingId)}`}
                className="font-semibold text-brand-700 underline"
              >
                {listing.title}
              </Link>
              <span className="text-sm text-slate-700">{REASON_TEXT[listing.reason]}</span>
              <span className="text-xs text-slate-500">
                Creator {listing.creatorId}, listed <LocalDate iso={listing.createdAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
