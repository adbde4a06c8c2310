import { LICENSES, LICENSE_TYPES, type LicenseType } from "~/lib/license-terms";

/**
 * The licence tiers a listing offers (decision 101): Standard always, at the
 * listing's price; Extended and Exclusive when its creator priced them.
 */
export interface TierPrices {
  price_cents: number;
  extended_price_cents: number | null;
  exclusive_price_cents: number | null;
}

export interface OfferedLicense {
  type: LicenseType;
  priceCents: number;
}

/** The listing's price for a tier, or null when it does not offer that tier. */
export function priceOfTier(listing: TierPrices, type: LicenseType): number | null {
  if (type === "extended") return listing.extended_price_cents;
  if (type === "exclusive") return listing.exclusive_price_cents;
  return listing.price_cents;
}

/** The tiers offered, Standard first. */
export function offeredLicenses(listing: TierPrices): OfferedLicense[] {
  return LICENSE_TYPES.flatMap((type) => {
    const priceCents = priceOfTier(listing, type);
    return priceCents === null ? [] : [{ type, priceCents }];
  });
}

/** Why a cart's tier is refused: the listing does not offer it. */
export function tierNotOffered(title: string, type: LicenseType): string {
  const tier = LICENSES[type].tier;
  return `"${title}" is not sold with ${type === "extended" || type === "exclusive" ? "an" : "a"} ${tier} license. Please choose a license it offers.`;
}
