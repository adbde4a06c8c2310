import { useHydrated } from "~/ui/use-hydrated";

/**
 * The hidden fields of a buyer's form on one listing (Add to cart, Save): the
 * listing, the page the action comes back to without JavaScript, scrolled to
 * `anchor` (lib/back-to-item.ts), and, once the page runs JavaScript, that a
 * fetcher posts it and wants the answer as data (`enhanced`).
 */
export function ListingFormFields({
  listingId,
  redirectTo,
  anchor,
}: {
  listingId: string;
  redirectTo: string;
  anchor?: string;
}) {
  const hydrated = useHydrated();
  return (
    <>
      <input type="hidden" name="listingId" value={listingId} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {anchor ? <input type="hidden" name="anchor" value={anchor} /> : null}
      {hydrated ? <input type="hidden" name="enhanced" value="1" /> : null}
    </>
  );
}
