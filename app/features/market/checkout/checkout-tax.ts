import { countryName } from "~/lib/payout-countries";
import { formatRate, standardVatRateBps } from "~/lib/vat-rates";
import { vatNumberCountry } from "~/lib/vat-numbers";

/**
 * The tax of an order in the built-in test checkout (docs/decisions/102).
 * With TAX=on, a buyer whose country is in the VAT table (the EU member
 * states and the United Kingdom) pays its standard rate on the order's
 * subtotal less its discount, rounded to the cent (half up); none elsewhere or
 * without a country. A business that gave a well-formed VAT number of its
 * country, when that country is not the platform's own (STRIPE_PLATFORM_COUNTRY),
 * pays none: the reverse charge, the buyer accounts for the VAT (and the
 * receipt says so). With TAX=off, none. Real payments are taxed by Stripe Tax.
 */
export interface OrderTax {
  taxCents: number;
  /** The rate charged, in basis points; null when none was (or Stripe computed it). */
  rateBps: number | null;
  /** Where the buyer said they are (ISO 3166-1 alpha-2), or null. */
  country: string | null;
  /** The buyer's VAT number, kept only when the reverse charge applied; null otherwise. */
  vatNumber: string | null;
}

export const NO_TAX = { taxCents: 0, rateBps: null, vatNumber: null } as const;

export function testCheckoutTax(args: {
  enabled: boolean;
  /** What the tax is charged on: the items' prices less the discount. */
  taxableCents: number;
  country?: string | null;
  vatNumber?: string | null;
  platformCountry: string;
}): OrderTax {
  const country = args.country ?? null;
  const rateBps = country ? standardVatRateBps(country) : null;
  if (!args.enabled || !country || rateBps === null) return { ...NO_TAX, country };
  if (
    args.vatNumber &&
    vatNumberCountry(args.vatNumber) === country &&
    country !== args.platformCountry
  ) {
    return { ...NO_TAX, country, vatNumber: args.vatNumber };
  }
  return {
    taxCents: Math.round((Math.max(0, args.taxableCents) * rateBps) / 10_000),
    rateBps,
    country,
    vatNumber: null,
  };
}

/** Whether an order's tax was reverse-charged (the buyer accounts for it). */
export function isReverseCharge(order: { tax_cents: number; vat_number: string | null }): boolean {
  return order.vat_number !== null && order.tax_cents === 0;
}

/** The tax line's name: "VAT 19% (Germany)" for the test checkout's VAT, else "Tax (country)" or "Tax". */
export function taxLabel(tax: { rateBps: number | null; country: string | null }): string {
  if (tax.rateBps !== null && tax.country)
    return `VAT ${formatRate(tax.rateBps)} (${countryName(tax.country)})`;
  return tax.country ? `Tax (${countryName(tax.country)})` : "Tax";
}

/** What a receipt says of a reverse-charged order. */
export function reverseChargeNote(vatNumber: string): string {
  return `Reverse charge: no VAT charged; the buyer accounts for it (VAT number ${vatNumber}).`;
}
