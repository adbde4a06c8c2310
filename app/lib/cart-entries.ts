import { isLicenseType, type LicenseType } from "~/lib/license-terms";

/** A cart entry naming a bundle (the cart cookie keeps listing ids and these side by side). */
export const BUNDLE_CART_PREFIX = "bundle:";

/**
 * The cart cookie's entries: a listing's id (its Standard licence), the id
 * and a tier as `<id>:extended` or `<id>:exclusive` (decision 101), or a
 * bundle as `bundle:<id>` (bundles sell the Standard licence). Never prices.
 */
export const CART_ENTRY_PATTERN =
  /^(?:bundle:[A-Za-z0-9_-]{1,64}|[A-Za-z0-9_-]{1,64}(?::(?:extended|exclusive))?)$/;

export type CartEntry =
  | { kind: "bundle"; bundleId: string }
  | { kind: "listing"; listingId: string; licenseType: LicenseType };

export function parseCartEntry(entry: string): CartEntry {
  if (entry.startsWith(BUNDLE_CART_PREFIX))
    return { kind: "bundle", bundleId: entry.slice(BUNDLE_CART_PREFIX.length) };
  const [listingId, tier] = entry.split(":");
  return { kind: "listing", listingId, licenseType: isLicenseType(tier) ? tier : "standard" };
}

/** A listing's entry for a tier (the plain id for Standard). */
export function listingCartEntry(listingId: string, licenseType: LicenseType): string {
  return licenseType === "standard" ? listingId : `${listingId}:${licenseType}`;
}

/** The listing an entry names (null for a bundle). */
export function listingOfEntry(entry: string): string | null {
  const parsed = parseCartEntry(entry);
  return parsed.kind === "listing" ? parsed.listingId : null;
}
