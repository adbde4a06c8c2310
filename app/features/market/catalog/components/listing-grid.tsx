import type { ReactNode } from "react";
import { ListingCard } from "~/features/market/catalog/components/listing-card";
import type { ListingCardData } from "~/features/market/catalog/components/listing-card";
import { PageLinks } from "~/features/market/catalog/components/page-links";

/**
 * A page of listing cards (the marketplace and a creator's storefront): a visually hidden
 * h2 naming the grid, then one card per listing, the first one's image loading with priority
 * (`empty` when there is none); then the links to the other pages.
 * The cards' titles are h3: their section has its h2, so the headings descend one level at a time.
 */
export function ListingGrid({
  heading,
  listings,
  ratings,
  inCart,
  redirectTo,
  empty,
  pages,
}: {
  heading: ReactNode;
  listings: ListingCardData[];
  /** The buyers' ratings by listing id, where the page shows them. */
  ratings?: Record<string, { average: number; count: number } | undefined>;
  inCart: ReadonlySet<string>;
  redirectTo: string;
  /** What the page says when it has no listings. */
  empty: ReactNode;
  /** Where the pages are: the page's path, its query without the cursor, the next page's cursor (null on the last) and this page's. */
  pages: { path: string; baseQuery: string; nextCursor: string | null; cursor: string };
}) {
  const { path, baseQuery, nextCursor, cursor } = pages;
  const nextHref = nextCursor
    ? `${path}?${new URLSearchParams([...new URLSearchParams(baseQuery), ["cursor", nextCursor]])}`
    : null;
  return (
    <>
      {listings.length === 0 ? (
        empty
      ) : (
        <>
          <h2 id="listings-heading" className="sr-only">
            {heading}
          </h2>
          <ul
            className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3"
            aria-labelledby="listings-heading"
          >
            {listings.map((item, index) => (
              <li key={item.id} className="flex">
                <ListingCard
                  listing={item}
                  rating={ratings?.[item.id] ?? null}
                  inCart={inCart.has(item.id)}
                  redirectTo={redirectTo}
                  priority={index === 0}
                />
              </li>
            ))}
          </ul>
        </>
      )}
      <PageLinks
        firstHref={`${path}${baseQuery ? `?${baseQuery}` : ""}`}
        nextHref={nextHref}
        pastFirst={Boolean(cursor)}
      />
    </>
  );
}

/** What a listing page says when it has no listings: `none` unless a search (or a later page) found nothing; `children` below. */
export function ListingsEmpty({
  searched,
  none,
  children,
}: {
  searched: boolean;
  none: string;
  children: ReactNode;
}) {
  return (
    <div className="card p-10 text-center" data-testid="marketplace-empty">
      <p className="font-medium text-slate-900">
        {searched ? "No images match your search." : none}
      </p>
      {children}
    </div>
  );
}
