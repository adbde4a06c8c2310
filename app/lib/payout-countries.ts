import { COUNTRY_NAMES } from "~/lib/country-names";

/**
 * Where creators can be paid from this platform, by Stripe's rules (the
 * built-in test payouts and the tests' Stripe mock apply the same ones): one
 * table, PAYOUT_COUNTRY_TABLE, with its source and the date it was read.
 *
 * - Cross-border payouts (PAYOUT_COUNTRY_SOURCE): platforms based in the
 *   United States, the United Kingdom, the EEA, Canada and Switzerland can
 *   transfer funds to connected accounts in any of these same regions;
 *   Stripe offers no self-serve cross-border payouts to other countries.
 * - Service agreement types, https://docs.stripe.com/connect/service-agreement-types:
 *   cross-border payouts work with accounts under the `recipient` service
 *   agreement, created with their country passed explicitly; transfers to
 *   recipient accounts take an extra 24 hours to become available.
 * - Supported currencies, https://docs.stripe.com/currencies: a platform
 *   settles in its country's currency (other settlement currencies have to be
 *   enabled at Stripe first). Zero-decimal currencies (JPY, ...) are left out:
 *   every amount here is in hundredths.
 *
 * Stripe has the last word: when it refuses an account or an onboarding link
 * all the same, the creator is shown Stripe's own reason
 * (app/infra/payouts/stripe-connect.server.ts).
 */
export const PAYOUT_COUNTRY_SOURCE = {
  title: "Stripe, Cross-border payouts (Availability)",
  url: "https://docs.stripe.com/connect/cross-border-payouts",
  read: "2026-11-29",
} as const;

/** Stripe's cross-border regions: a platform in one pays creators in any of them. */
export type CrossBorderRegion = "US" | "UK" | "EEA" | "CA" | "CH";

export interface PayoutCountryRow {
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** The currency a platform in this country settles in (lowercase, as Stripe's API writes it). */
  settlementCurrency: string;
  /** Its cross-border region; null: a platform here pays creators in its own country only. */
  region: CrossBorderRegion | null;
}

/**
 * The countries a platform can be in (STRIPE_PLATFORM_COUNTRY), each with its
 * settlement currency and cross-border region. The EEA rows are the EEA
 * countries where Stripe opens accounts (Iceland is not one).
 */
export const PAYOUT_COUNTRY_TABLE: readonly PayoutCountryRow[] = [
  { country: "US", settlementCurrency: "usd", region: "US" },
  { country: "GB", settlementCurrency: "gbp", region: "UK" },
  { country: "CA", settlementCurrency: "cad", region: "CA" },
  { country: "CH", settlementCurrency: "chf", region: "CH" },
  { country: "AT", settlementCurrency: "eur", region: "EEA" },
  { country: "BE", settlementCurrency: "eur", region: "EEA" },
  { country: "BG", settlementCurrency: "eur", region: "EEA" },
  { country: "HR", settlementCurrency: "eur", region: "EEA" },
  { country: "CY", settlementCurrency: "eur", region: "EEA" },
  { country: "CZ", settlementCurrency: "czk", region: "EEA" },
  { country: "DK", settlementCurrency: "dkk", region: "EEA" },
  { country: "EE", settlementCurrency: "eur", region: "EEA" },
  { country: "FI", settlementCurrency: "eur", region: "EEA" },
  { country: "FR", settlementCurrency: "eur", region: "EEA" },
  { country: "DE", settlementCurrency: "eur", region: "EEA" },
  { country: "GR", settlementCurrency: "eur", region: "EEA" },
  { country: "HU", settlementCurrency: "huf", region: "EEA" },
  { country: "IE", settlementCurrency: "eur", region: "EEA" },
  { country: "IT", settlementCurrency: "eur", region: "EEA" },
  { country: "LV", settlementCurrency: "eur", region: "EEA" },
  { country: "LI", settlementCurrency: "chf", region: "EEA" },
  { country: "LT", settlementCurrency: "eur", region: "EEA" },
  { country: "LU", settlementCurrency: "eur", region: "EEA" },
  { country: "MT", settlementCurrency: "eur", region: "EEA" },
  { country: "NL", settlementCurrency: "eur", region: "EEA" },
  { country: "NO", settlementCurrency: "nok", region: "EEA" },
  { country: "PL", settlementCurrency: "pln", region: "EEA" },
  { country: "PT", settlementCurrency: "eur", region: "EEA" },
  { country: "RO", settlementCurrency: "ron", region: "EEA" },
  { country: "SK", settlementCurrency: "eur", region: "EEA" },
  { country: "SI", settlementCurrency: "eur", region: "EEA" },
  { country: "ES", settlementCurrency: "eur", region: "EEA" },
  { country: "SE", settlementCurrency: "sek", region: "EEA" },
  // Outside the cross-border regions: creators in the platform's own country only.
  { country: "AU", settlementCurrency: "aud", region: null },
  { country: "NZ", settlementCurrency: "nzd", region: null },
  { country: "SG", settlementCurrency: "sgd", region: null },
  { country: "HK", settlementCurrency: "hkd", region: null },
];

const rowOf = (country: string) => PAYOUT_COUNTRY_TABLE.find((row) => row.country === country);

/** The countries of the cross-border regions: a platform here pays accounts anywhere here. */
export const CROSS_BORDER_COUNTRIES: readonly string[] = PAYOUT_COUNTRY_TABLE.filter(
  (row) => row.region !== null,
).map((row) => row.country);

/** Each supported platform country's settlement currency. */
export const SETTLEMENT_CURRENCY: Readonly<Record<string, string>> = Object.fromEntries(
  PAYOUT_COUNTRY_TABLE.map((row) => [row.country, row.settlementCurrency]),
);

/** The platform countries this app supports (STRIPE_PLATFORM_COUNTRY). */
export const PLATFORM_COUNTRIES: readonly string[] = PAYOUT_COUNTRY_TABLE.map((row) => row.country);

/** Every ISO 3166-1 alpha-2 country a creator may say they live in (the onboarding select). */
const ALL_COUNTRIES: readonly string[] = COUNTRY_NAMES.map(([code]) => code);
const NAME_OF: ReadonlyMap<string, string> = new Map(COUNTRY_NAMES);

export type ServiceAgreement = "full" | "recipient";

export type PayoutCountryRule =
  | { payable: true; serviceAgreement: ServiceAgreement; crossBorder: boolean }
  | { payable: false; reason: string };

/** A country's English name ("FR" → "France"), from the fixed table (the same on the server and in the browser). */
export function countryName(code: string): string {
  return NAME_OF.get(code) ?? code;
}

/** A two-letter code this module knows, uppercased; null otherwise. */
export function normalizeCountry(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const code = value.trim().toUpperCase();
  return ALL_COUNTRIES.includes(code) ? code : null;
}

/** The countries a creator chooses from, by English name (the table's order: no sort that differs between ICUs). */
export function countryChoices(): { code: string; name: string }[] {
  return COUNTRY_NAMES.map(([code, name]) => ({ code, name }));
}

/**
 * Whether a platform in `platformCountry` can pay a creator in `creatorCountry`,
 * and under which service agreement: the full one at home, the recipient one
 * across borders (inside the region only).
 */
export function payoutCountryRule(
  platformCountry: string,
  creatorCountry: string,
): PayoutCountryRule {
  if (creatorCountry === platformCountry)
    return { payable: true, serviceAgreement: "full", crossBorder: false };
  const creator = countryName(creatorCountry);
  const platform = countryName(platformCountry);
  if (!rowOf(platformCountry)?.region) {
    return {
      payable: false,
      reason: `Stripe cannot pay creators in ${creator} from this platform: a platform in ${platform} can only pay creators in ${platform}.`,
    };
  }
  if (!rowOf(creatorCountry)?.region) {
    return {
      payable: false,
      reason: `Stripe cannot pay creators in ${creator} from this platform: it pays creators in the United States, the United Kingdom, the EEA, Canada and Switzerland only.`,
    };
  }
  return { payable: true, serviceAgreement: "recipient", crossBorder: true };
}

/** Whether `currency` is what a platform in `platformCountry` settles in. */
export function isSettlementCurrency(platformCountry: string, currency: string): boolean {
  return SETTLEMENT_CURRENCY[platformCountry] === currency;
}
