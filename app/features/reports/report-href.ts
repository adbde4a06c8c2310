/**
 * The address of the report page for a listing or a storefront, apart from
 * the reports' schemas (report-types.ts), so the pages that show a Report link
 * do not load the schema library.
 */

/** Where the Report link of a listing page or a storefront leads. */
export function reportHref(target: { listingId: string } | { handle: string }): string {
  return "listingId" in target
    ? `/report?listing=${encodeURIComponent(target.listingId)}`
    : `/report?handle=${encodeURIComponent(target.handle)}`;
}
