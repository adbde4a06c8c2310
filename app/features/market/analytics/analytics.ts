/**
 * A creator's analytics (the /analytics screen and GET /api/token-analytics):
 * the ranges it covers, the shapes it answers and the listing table's order.
 * Isomorphic: the screen sorts and draws from these.
 */

/** The ranges a creator may look at, in days ending today (UTC). */
export const ANALYTICS_RANGES = [7, 30, 90] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];
export const DEFAULT_ANALYTICS_RANGE: AnalyticsRange = 30;

/** The screen's download of the creator's monthly sales (GET /api/token-analytics/sales.csv answers the same file). */
export const SALES_CSV_PATH = "/analytics/sales.csv";

export function isAnalyticsRange(value: unknown): value is AnalyticsRange {
  return ANALYTICS_RANGES.some((range) => String(range) === String(value));
}

/** One UTC day of the range. Views, add-to-carts and saves count once per visitor and day. */
export interface AnalyticsDay {
  /** YYYY-MM-DD (UTC). */
  date: string;
  views: number;
  addsToCart: number;
  /** Listings saved for later (POST /saved), each once per visitor and day; never who. */
  saves: number;
  /** Items sold that day and not refunded in full. */
  sales: number;
  /** sales ÷ views; null on a day without views. */
  conversion: number | null;
  /** The creator's share of that day's sales less what refunds took back, in dollars ("12.50"). */
  earnings: string;
  /**
   * Sales in the built-in test checkout on a server where they are not
   * earnings (production): not in sales or earnings, shown apart. 0 elsewhere.
   */
  testSales: number;
}

/** One of the creator's listings over the range (live ones, and any other with views or sales in it). */
export interface AnalyticsListing {
  listingId: string;
  title: string;
  views: number;
  saves: number;
  sales: number;
  conversion: number | null;
  earnings: string;
}

/** The creator's followers (confirmed follows): counts, never an address. */
export interface AnalyticsFollowers {
  /** Confirmed follows now. */
  confirmed: number;
  /** Of those, the ones confirmed within the range (an ended follow counts nowhere). */
  newInRange: number;
}

/** One of the creator's bundles sold within the range. */
export interface AnalyticsBundle {
  bundleId: string;
  title: string;
  /** Paid orders that held the bundle (one refunded in full counts none). */
  sales: number;
  /** The creator's share of its items less refunds, in dollars ("12.50"). */
  earnings: string;
}

/** One of the creator's discount codes used in paid orders within the range. */
export interface AnalyticsDiscountCode {
  discountCodeId: string;
  code: string;
  /** Paid orders whose items of the creator's took the code (one refunded in full counts none). */
  orders: number;
  /** What buyers paid for those items after the discount, less refunds, in dollars. */
  revenue: string;
  /** What the code took off those items, in dollars (refunded orders not counted). */
  discount: string;
  /** The creator's share of that revenue, in dollars. */
  earnings: string;
}

export interface CreatorAnalytics {
  days: AnalyticsDay[];
  listings: AnalyticsListing[];
  followers: AnalyticsFollowers;
  /** Bundles sold within the range, best earners first (their items' sales are in `listings` too). */
  bundles: AnalyticsBundle[];
  /** Discount codes used within the range, highest revenue first. */
  discountCodes: AnalyticsDiscountCode[];
}

/** sales ÷ views to four decimals; null without views. */
export function conversionOf(sales: number, views: number): number | null {
  return views > 0 ? Math.round((sales / views) * 10_000) / 10_000 : null;
}

/** A conversion for people: "12.5%", or "–" without views. */
export function formatConversion(conversion: number | null): string {
  if (conversion === null) return "–";
  const percent = conversion * 100;
  return `${Number.isInteger(percent) ? percent : percent.toFixed(1)}%`;
}

export const LISTING_SORTS = [
  "title",
  "views",
  "saves",
  "sales",
  "conversion",
  "earnings",
] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];
export type SortDirection = "asc" | "desc";

/** The listing table's order from the page's query (?sort=…&dir=…); anything else is the default, earnings high to low. */
export function listingOrder(
  sort: string | null,
  dir: string | null,
): { sort: ListingSort; dir: SortDirection } {
  const known = (LISTING_SORTS as readonly string[]).includes(sort ?? "")
    ? (sort as ListingSort)
    : "earnings";
  const direction = dir === "asc" || dir === "desc" ? dir : known === "title" ? "asc" : "desc";
  return { sort: known, dir: direction };
}

/** The listings in that order; ties by title, then id, so the order is stable. A listing without views sorts below every conversion. */
export function sortListings(
  listings: AnalyticsListing[],
  sort: ListingSort,
  dir: SortDirection,
): AnalyticsListing[] {
  const key = (listing: AnalyticsListing): number | string => {
    if (sort === "title") return listing.title.toLocaleLowerCase();
    if (sort === "earnings") return Number(listing.earnings);
    if (sort === "conversion") return listing.conversion ?? -1;
    return listing[sort];
  };
  const sign = dir === "asc" ? 1 : -1;
  return [...listings].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    const primary = ka < kb ? -1 : ka > kb ? 1 : 0;
    if (primary !== 0) return primary * sign;
    return a.title.localeCompare(b.title) || a.listingId.localeCompare(b.listingId);
  });
}
