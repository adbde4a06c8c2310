import { Link } from "@remix-run/react";
import { cosmeticRating } from "~/features/market/types";
import { formatAmount, formatMoney } from "~/lib/money";
import { useCurrency } from "~/ui/currency";
import { CartButton } from "~/features/market/checkout/components/cart-button";
import { SaveButton } from "~/features/market/saved/components/save-button";
import { RatingStars } from "~/features/market/catalog/components/rating-stars";
import { PixelSize } from "~/features/market/catalog/components/pixel-size";
import { StyleBadge } from "~/features/market/catalog/components/style-badge";
import { AiLabelBadge } from "~/features/market/catalog/components/ai-label-badge";
import type { AiLabel } from "~/lib/ai-label";
import { Illustrative } from "~/ui/illustrative";
import { ResponsivePicture } from "~/ui/responsive-picture";
import { useDemoFigures } from "~/ui/demo-figures";
import { LICENSES, type LicenseType } from "~/lib/license-terms";

/**
 * How wide the marketplace grid shows a card's image (app/routes/_market+/marketplace.tsx:
 * max-w-7xl with px-4, the 20rem cart column from lg, 1 / 2 / 3 columns with gap-4).
 */
export const LISTING_CARD_SIZES =
  "(min-width: 1280px) 291px, (min-width: 1024px) calc(50vw - 196px), (min-width: 640px) calc(50vw - 24px), calc(100vw - 32px)";

export interface ListingCardData {
  id: string;
  title: string;
  description: string;
  style: string;
  priceCents: number;
  previewUrl: string;
  /** The preview's own width, when known: its srcset offers nothing wider. */
  previewWidth?: number | null;
  /** The pixel size of the file a buyer gets, when known. */
  width?: number | null;
  height?: number | null;
  creator: { firstName: string };
  licensingEnabled: boolean;
  /** How the file was made, shown as text on the card. */
  aiLabel: AiLabel;
  /** The licence tiers and their prices (decision 101); the card names Extended and Exclusive when offered. */
  licenses?: { type: LicenseType; price: string }[];
}

/**
 * A marketplace card: the watermarked preview only, title, style, the
 * buyers' rating (average and count) or, while there is none, "No ratings yet" (with
 * DEMO_FIGURES on, the illustrative stars labelled so), creator's first name, price, the file's pixel size, the cart
 * and Save buttons (at the bottom, so the buttons of a row line up). The title's id is the card's
 * anchor (#listing-<id>), where both buttons bring the page back without JavaScript; the title
 * links to the listing's own page.
 */
export function ListingCard({
  listing,
  rating = null,
  inCart,
  redirectTo,
  priority = false,
}: {
  listing: ListingCardData;
  /** The buyers' ratings of the listing, when it has any. */
  rating?: { average: number; count: number } | null;
  inCart: boolean;
  redirectTo: string;
  /** The first card on the page: its image loads eagerly with high priority. */
  priority?: boolean;
}) {
  const currency = useCurrency();
  const demoFigures = useDemoFigures();
  return (
    <article
      className="card flex w-full flex-col overflow-hidden"
      data-testid="listing-card"
      aria-labelledby={`listing-${listing.id}`}
    >
      <div className="aspect-square bg-slate-100">
        <ResponsivePicture
          src={listing.previewUrl}
          sourceWidth={listing.previewWidth}
          sizes={LISTING_CARD_SIZES}
          alt={`Preview of ${listing.title} (watermarked)`}
          // The first card's image is the first screen's largest: fetched at once and first; the rest when scrolled to.
          loading={priority ? "eager" : "lazy"}
          highPriority={priority}
          width={640}
          height={640}
          className="h-full w-full object-cover"
        />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-2">
          <h3
            id={`listing-${listing.id}`}
            className="min-w-0 scroll-mt-24 font-semibold wrap-anywhere text-slate-900"
          >
            {/* The listing's own page: shareable, with the image large and the details. */}
            <Link
              to={`/marketplace/${listing.id}`}
              className="block wrap-anywhere hover:underline"
              data-testid="listing-link"
            >
              {listing.title}
            </Link>
          </h3>
          <span className="flex shrink-0 flex-col items-end gap-1">
            <StyleBadge style={listing.style} />
            <AiLabelBadge label={listing.aiLabel} />
          </span>
        </div>
        {listing.description ? (
          <p className="line-clamp-2 text-sm wrap-anywhere text-slate-600">{listing.description}</p>
        ) : null}
        <div className="flex items-center justify-between text-sm text-slate-600">
          <span>
            by <bdi data-testid="card-creator">{listing.creator.firstName || "a creator"}</bdi>
          </span>
          {rating ? (
            <span className="flex items-center gap-1" data-testid="buyer-rating">
              <RatingStars rating={rating.average} />
              <span className="text-xs text-slate-600">
                ({rating.count} {rating.count === 1 ? "rating" : "ratings"})
              </span>
            </span>
          ) : demoFigures ? (
            <span
              className="flex flex-wrap items-center justify-end"
              data-testid="illustrative-rating"
            >
              <RatingStars rating={cosmeticRating(listing.id)} />
              <Illustrative />
            </span>
          ) : (
            <span className="text-xs text-slate-600" data-testid="no-ratings">
              No ratings yet
            </span>
          )}
        </div>
        <div className="mt-auto flex items-center justify-between pt-2">
          <span className="text-lg font-bold text-slate-900" data-testid="listing-price">
            {formatMoney(listing.priceCents, currency)}
          </span>
          <span className="flex flex-col items-end gap-0.5 text-right">
            <PixelSize width={listing.width} height={listing.height} />
            {listing.licensingEnabled ? (
              <span className="text-xs text-slate-500">Commercial license</span>
            ) : null}
          </span>
        </div>
        {listing.licenses && listing.licenses.length > 1 ? (
          <p className="text-xs text-slate-600" data-testid="listing-tiers">
            {listing.licenses.map((license, index) => (
              <span key={license.type}>
                {index > 0 ? " · " : ""}
                {LICENSES[license.type].tier} {formatAmount(Number(license.price), currency)}
              </span>
            ))}
          </p>
        ) : null}
        <CartButton
          listingId={listing.id}
          title={listing.title}
          inCart={inCart}
          redirectTo={redirectTo}
          anchor={`listing-${listing.id}`}
        />
        <SaveButton
          listingId={listing.id}
          title={listing.title}
          redirectTo={redirectTo}
          anchor={`listing-${listing.id}`}
        />
      </div>
    </article>
  );
}
