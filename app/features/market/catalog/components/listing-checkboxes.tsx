import type { ReactNode } from "react";

/**
 * The creator's listings as checkboxes named `listingIds` (a bundle's items,
 * the listings a discount code is for): each title on a line of its own and
 * `detail` under it, so a phone keeps whole words; those in `checked` start
 * ticked (a refused form coming back).
 */
export function ListingCheckboxes<Listing extends { id: string; title: string }>({
  listings,
  checked,
  detail,
  testId,
}: {
  listings: readonly Listing[];
  checked: ReadonlySet<string>;
  detail: (listing: Listing) => ReactNode;
  testId?: string;
}) {
  return (
    <ul className="mt-1 space-y-1">
      {listings.map((listing) => (
        <li key={listing.id}>
          <label className="flex min-h-11 items-start gap-3 py-1 text-slate-800">
            <input
              type="checkbox"
              name="listingIds"
              value={listing.id}
              defaultChecked={checked.has(listing.id)}
              className="choice-input mt-0.5"
              data-testid={testId}
            />
            <span className="min-w-0 flex-1">
              <span className="block wrap-anywhere">{listing.title}</span>
              {detail(listing)}
            </span>
          </label>
        </li>
      ))}
    </ul>
  );
}
