import { Link } from "@remix-run/react";
import { MAX_SAVED_LISTINGS } from "~/lib/limits";
import { formatMoney } from "~/lib/money";
import { useBuyerLists } from "~/ui/buyer-lists";
import { useCurrency } from "~/ui/currency";
import { CartButton } from "~/features/market/checkout/components/cart-button";
import { PixelSize } from "~/features/market/catalog/components/pixel-size";
import { PreviewThumbnail } from "~/features/market/catalog/components/preview-thumbnail";
import { StyleBadge } from "~/features/market/catalog/components/style-badge";
import { SaveButton } from "~/features/market/saved/components/save-button";
import type { SavedListing } from "~/features/market/saved/types";

const HERE = "/saved";

/**
 * The saved listings (GET /saved), newest saved first: each one still for
 * sale with its preview, title (linking to its page), style, creator, price
 * now and pixel size, Add to Cart and Remove from saved; each one that left
 * the marketplace marked "No longer available", with Remove only. A row's id
 * is its anchor (#listing-<id>): Add to Cart comes back to it without
 * JavaScript, and Remove to the row after it (or before it, for the last).
 * With JavaScript a removed row leaves at once.
 */
export function SavedList({ listings }: { listings: SavedListing[] }) {
  const { saved, cart } = useBuyerLists();
  const currency = useCurrency();
  // A row whose removal is on its way is hidden at once (the buyer's lists count it already),
  // not unmounted: its form's fetcher lives on until the answer lands.
  const shown = listings.filter((listing) => saved.has(listing.id));
  const empty = (
    <div className="card p-10 text-center" data-testid="saved-empty">
      <p className="font-medium text-slate-900">You have not saved any listings yet.</p>
      <p className="mt-1 text-sm text-slate-600">
        Press Save on any image to keep it here.{" "}
        <Link to="/marketplace" className="text-brand-700 underline">
          Browse the marketplace
        </Link>
      </p>
    </div>
  );
  if (listings.length === 0) return empty;
  const anchorAfterRemoving = (id: string) => {
    const index = shown.findIndex((listing) => listing.id === id);
    const neighbour = shown[index + 1] ?? shown[index - 1];
    return neighbour ? `listing-${neighbour.id}` : undefined;
  };
  return (
    <>
      {shown.length === 0 ? empty : null}
      <section
        className="card p-4 sm:p-6"
        aria-labelledby="saved-list-heading"
        hidden={shown.length === 0}
      >
        <h2 id="saved-list-heading" className="text-lg font-semibold text-slate-900">
          <span data-testid="saved-count">
            {shown.length} of {MAX_SAVED_LISTINGS}
          </span>{" "}
          saved
        </h2>
        <ul className="mt-2 divide-y divide-slate-200">
          {listings.map((listing) => (
            <li
              key={listing.id}
              id={`listing-${listing.id}`}
              hidden={!saved.has(listing.id)}
              className="flex scroll-mt-24 items-start gap-3 py-4 sm:gap-4"
              data-testid="saved-listing"
            >
              {listing.available ? (
                <>
                  <PreviewThumbnail src={listing.previewUrl} size={64} />
                  <div className="min-w-0 flex-1 space-y-1">
                    <p className="font-medium wrap-anywhere text-slate-900">
                      <Link to={`/marketplace/${listing.id}`} className="hover:underline">
                        {listing.title}
                      </Link>
                    </p>
                    <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
                      <StyleBadge style={listing.style} />
                      <span className="min-w-0 wrap-anywhere">
                        by {listing.creatorFirstName || "a creator"}
                      </span>
                    </p>
                    <p className="flex flex-wrap items-baseline gap-x-2">
                      <span className="font-semibold text-slate-900" data-testid="saved-price">
                        {formatMoney(listing.priceCents, currency)}
                      </span>
                      <PixelSize
                        width={listing.width}
                        height={listing.height}
                        className="text-sm text-slate-600"
                      />
                    </p>
                    <div className="flex flex-col gap-1 pt-1 sm:flex-row sm:items-start sm:gap-3">
                      <div className="sm:w-48">
                        <CartButton
                          listingId={listing.id}
                          title={listing.title}
                          inCart={cart.has(listing.id)}
                          redirectTo={HERE}
                          anchor={`listing-${listing.id}`}
                        />
                      </div>
                      <SaveButton
                        listingId={listing.id}
                        title={listing.title}
                        redirectTo={HERE}
                        anchor={anchorAfterRemoving(listing.id)}
                        compact
                      />
                    </div>
                  </div>
                </>
              ) : (
                <>
                  <div className="h-16 w-16 shrink-0 rounded-md bg-slate-100" aria-hidden="true" />
                  <div className="min-w-0 flex-1 space-y-1">
                    <p className="font-medium text-slate-900" data-testid="saved-unavailable">
                      No longer available
                    </p>
                    <p className="text-sm text-slate-600">
                      This listing was withdrawn or removed from the marketplace.
                    </p>
                    <SaveButton
                      listingId={listing.id}
                      title="a listing no longer available"
                      redirectTo={HERE}
                      anchor={anchorAfterRemoving(listing.id)}
                      compact
                    />
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
