import { z } from "zod";
import { priceInput } from "~/features/market/catalog/listing-schema";
import { holdsOnlyXmlText, nonXmlTextMessage } from "~/lib/xml-text";
import { BUNDLE_CART_PREFIX } from "~/lib/cart-entries";

/**
 * A bundle: 2 to 10 of a creator's own live listings sold together at a price
 * below their sum. One schema for the form on My listings and POST /api/token-bundles.
 */
export const MIN_BUNDLE_ITEMS = 2;
export const MAX_BUNDLE_ITEMS = 10;
export const BUNDLE_ITEM_COUNT_ERROR = `Choose ${MIN_BUNDLE_ITEMS} to ${MAX_BUNDLE_ITEMS} of your listings.`;
export const BUNDLE_PRICE_REQUIRED = "Enter the bundle's price.";

/** A cart entry naming a bundle (the cart cookie keeps listing ids and these side by side). */
export { BUNDLE_CART_PREFIX };

export function bundleCartEntry(bundleId: string): string {
  return `${BUNDLE_CART_PREFIX}${bundleId}`;
}

/** The cart's entries, split into listing ids and bundle ids. */
export function splitCartEntries(entries: readonly string[]): {
  listingIds: string[];
  bundleIds: string[];
} {
  const listingIds: string[] = [];
  const bundleIds: string[] = [];
  for (const entry of entries) {
    if (entry.startsWith(BUNDLE_CART_PREFIX))
      bundleIds.push(entry.slice(BUNDLE_CART_PREFIX.length));
    else listingIds.push(entry);
  }
  return { listingIds, bundleIds };
}

export const bundleInputSchema = z.object({
  title: z
    .string("Please add a title for the bundle")
    .trim()
    .min(1, "Please add a title for the bundle")
    .max(120, "Please use at most 120 characters")
    .refine(holdsOnlyXmlText, nonXmlTextMessage("The title")),
  /** The listings, in order (a form's checkboxes send one value per ticked box). */
  listingIds: z.preprocess(
    (value) => (typeof value === "string" ? [value] : value === undefined ? [] : value),
    z
      .array(z.string().min(1).max(100), BUNDLE_ITEM_COUNT_ERROR)
      .min(MIN_BUNDLE_ITEMS, BUNDLE_ITEM_COUNT_ERROR)
      .max(MAX_BUNDLE_ITEMS, BUNDLE_ITEM_COUNT_ERROR),
  ),
  /** Dollars, as a listing's price (a number or a numeric string), rounded to whole cents. */
  price: priceInput.refine((value) => value !== undefined, BUNDLE_PRICE_REQUIRED),
});

export type BundleInput = z.output<typeof bundleInputSchema>;
