import { z } from "zod";
import { dollarsToCents, PRICE_RANGE_ERROR } from "~/lib/money";
import { holdsOnlyXmlText, nonXmlTextMessage } from "~/lib/xml-text";

/**
 * Listing an image on the product's own marketplace: one schema for the
 * no-JS form, the dashboard's embedded form and JSON callers.
 *
 * - price: dollars as a number or numeric string; missing means the image's
 *   own price, else 25; must be within the price range (PRICE_RANGE_ERROR says it).
 * - tags: an array or text, each split by commas (trimmed, empties dropped).
 * - switches: booleans, or form values. A form sends a hidden "false" before the
 *   checkbox's "true", so the last value wins and an unticked box means false.
 */
export const INVALID_PRICE = PRICE_RANGE_ERROR;
export const TITLE_REQUIRED = "Please add a title for your content";
export const MAX_TAGS = 20;

const lastValue = (value: unknown) => (Array.isArray(value) ? value[value.length - 1] : value);

export const formBoolean = z.preprocess((raw) => {
  const value = lastValue(raw);
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "boolean") return value;
  if (value === "on" || value === "true" || value === "1" || value === 1) return true;
  if (value === "off" || value === "false" || value === "0" || value === 0) return false;
  return value;
}, z.boolean("Expected true or false").optional());

export const priceInput = z.preprocess(
  (value) => (value === "" || value === null ? undefined : value),
  z
    .union([z.number(INVALID_PRICE), z.string(INVALID_PRICE)])
    .optional()
    .transform((value, context) => {
      if (value === undefined) return undefined;
      const cents = dollarsToCents(value);
      if (cents === null) {
        context.addIssue({ code: "custom", message: INVALID_PRICE });
        return z.NEVER;
      }
      // Dollars, rounded to whole cents. (Dollars, not cents: the form adapter parses
      // twice, so the output must read the same when parsed again.)
      return cents / 100;
    }),
);

export const tagsInput = z
  .preprocess(
    // Empty pieces go before the check: a form parser reads an empty item as a missing value.
    (value) =>
      Array.isArray(value)
        ? value.filter((item) => !(typeof item === "string" && item.trim() === ""))
        : value,
    z
      .union([z.array(z.string().max(40, "Tags are at most 40 characters")), z.string().max(1000)])
      .optional(),
  )
  .transform((value) => {
    // A form's single field may arrive as a one-item list: every item is split by commas too.
    const list =
      value === undefined
        ? []
        : (Array.isArray(value) ? value : [value]).flatMap((item) => item.split(","));
    const seen = new Set<string>();
    for (const tag of list.map((t) => t.trim()).filter(Boolean)) {
      if (seen.size < MAX_TAGS) seen.add(tag.slice(0, 40));
    }
    return [...seen];
  });

/** The Extended or Exclusive licence's price below the Standard one (decision 101). */
export function tierPriceTooLow(tier: "Extended" | "Exclusive"): string {
  return `The ${tier} license's price must be at least the Standard price`;
}

/**
 * The licence tiers' prices against the Standard one (decision 101): each
 * optional (absent: the tier is not offered), each at least `price` when both
 * are given (the listing service checks against the price it settles on too).
 */
export function tierPricesRule(
  value: { price?: number; extendedPrice?: number; exclusivePrice?: number },
  context: z.RefinementCtx,
): void {
  if (value.price === undefined) return;
  for (const [key, tier] of [
    ["extendedPrice", "Extended"],
    ["exclusivePrice", "Exclusive"],
  ] as const) {
    const tierPrice = value[key];
    if (tierPrice !== undefined && tierPrice < value.price)
      context.addIssue({ code: "custom", path: [key], message: tierPriceTooLow(tier) });
  }
}

export const listingInputSchema = z
  .object({
    stylizedImageId: z
      .string("Choose an image to list")
      .trim()
      .min(1, "Choose an image to list")
      .max(100),
    title: z
      .string(TITLE_REQUIRED)
      .trim()
      .min(1, TITLE_REQUIRED)
      .max(120, "Please use at most 120 characters")
      // The title is drawn into the listing's social card (SVG).
      .refine(holdsOnlyXmlText, nonXmlTextMessage("The title")),
    description: z
      .string()
      .trim()
      .max(2000, "Please use at most 2000 characters")
      .optional()
      .default(""),
    /** Dollars, rounded to whole cents. */
    price: priceInput,
    /** The Extended licence's price in dollars; absent: not offered (decision 101). */
    extendedPrice: priceInput,
    /** The Exclusive licence's price in dollars; absent: not offered. */
    exclusivePrice: priceInput,
    tags: tagsInput,
    licensingEnabled: formBoolean,
    nftEnabled: formBoolean,
  })
  .superRefine(tierPricesRule);

export type ListingInput = z.output<typeof listingInputSchema>;

export {
  defaultListingDescription,
  defaultListingTitle,
} from "~/features/market/catalog/listing-defaults";
