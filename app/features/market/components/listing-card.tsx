import { cosmeticRating } from "~/features/market/types";
import { formatMoney } from "~/lib/money";
import { CartButton } from "~/features/market/components/cart-button";
import { RatingStars } from "~/features/market/components/rating-stars";
import { StyleBadge } from "~/features/market/components/style-badge";

export interface ListingCardData {
  id: string;
  title: string;
  description: string;
  style: string;
  priceCents: number;
  previewUrl: string;
  creator: { firstName: string };
  licensingEnabled: boolean;
}

/**
 * A marketplace card: the watermarked preview only, title, style, cosmetic
 * rating, creator's first name, price, cart button (at the bottom, so the
 * buttons of a row line up). The title's id is the card's anchor (#listing-<id>).
 */
export function ListingCard({
  listing,
  inCart,
  redirectTo,
  priority = false,
}: {
  listing: ListingCardData;
  inCart: boolean;
  redirectTo: string;
  /** The first card on the page: its image loads eagerly with high priority. */
  priority?: boolean;
}) {
  return (
    <article className="card flex w-full flex-col overflow-hidden" data-testid="listing-card" aria-labelledby={`listing-${listing.id}`}>
      <div className="aspect-square bg-slate-100">
        <img
          src={listing.previewUrl}
          alt={`Preview of ${listing.title} (watermarked)`}
          // The first card's image is the first screen's largest: fetched at once and first; the rest when scrolled to.
          loading={priority ? "eager" : "lazy"}
          decoding={priority ? "sync" : "async"}
          {...(priority ? { fetchpriority: "high" } : {})}
          width={640}
          height={640}
          className="h-full w-full object-cover"
        />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-2">
          <h3 id={`listing-${listing.id}`} className="min-w-0 scroll-mt-24 font-semibold break-words text-slate-900">
            {listing.title}
          </h3>
          <StyleBadge style={listing.style} />
        </div>
        {listing.description ? <p className="line-clamp-2 text-sm text-slate-600">{listing.description}</p> : null}
        <div className="flex items-center justify-between text-sm text-slate-600">
          <span>by {listing.creator.firstName || "a creator"}</span>
          <RatingStars rating={cosmeticRating(listing.id)} />
        </div>
        <div className="mt-auto flex items-center justify-between pt-2">
          <span className="text-lg font-bold text-slate-900" data-testid="listing-price">
            {formatMoney(listing.priceCents)}
          </span>
          {listing.licensingEnabled ? <span className="text-xs text-slate-500">Commercial license</span> : null}
        </div>
        <CartButton listingId={listing.id} title={listing.title} inCart={inCart} redirectTo={redirectTo} anchor={`listing-${listing.id}`} />
      </div>
    </article>
  );
}
