/** What the bundles' pages, cards and lists show (isomorphic: the components take these). */

/** One listing of a bundle as its page, its card and the creator's list show it. */
export interface BundleItemView {
  listingId: string;
  title: string;
  style: string;
  priceCents: number;
  /** Null once the listing is no longer for sale (its preview is gone). */
  previewUrl: string | null;
  live: boolean;
}

export interface BundleView {
  id: string;
  title: string;
  url: string;
  /** Active and every item for sale: it can be bought. */
  available: boolean;
  status: "active" | "withdrawn";
  creator: { id: string; name: string; handle: string | null };
  items: BundleItemView[];
  sumCents: number;
  priceCents: number;
  savingCents: number;
}
