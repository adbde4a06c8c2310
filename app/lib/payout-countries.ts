/**
 * Where creators can be paid from this platform, by Stripe's rules (the
 * built-in test payouts apply the same ones).
 *
 * Sources (Stripe's documentation, read November 2026):
 * - Cross-border payouts, https://docs.stripe.com/connect/cross-border-payouts:
 *   platforms based in the United States, the United Kingdom, the EEA, Canada
 *   and Switzerland can transfer funds to connected accounts located in any of
 *   these same regions; no self-serve cross-border payouts elsewhere.
 * - Service agreement types, https://docs.stripe.com/connect/service-agreement-types:
 *   cross-border payouts work with accounts under the `recipient` service
 *   agreement, created with their country passed explicitly; transfers to
 *   recipient accounts take an extra 24 hours to become available.
 * - Supported currencies, https://docs.stripe.com/currencies: a platform
 *   settles in its country's currency (other settlement currencies have to be
 *   enabled at Stripe first). Zero-decimal currencies (JPY, ...) are left out:
 *   every amount here is in hundredths.
 */

/** EEA countries where Stripe accounts can be opened (Iceland is not one). */
const EEA = [
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LI",
  "LT",
  "LU",
  "MT",
  "NL",
  "NO",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
] as const;

/** The cross-border region: a platform here pays accounts anywhere here. */
export const CROSS_BORDER_COUNTRIES: readonly string[] = ["US", "GB", "CA", "CH", ...EEA];

const EURO = [
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PT",
  "SK",
  "SI",
  "ES",
];

/** Each supported platform country's settlement currency (lowercase, as Stripe's API writes it). */
export const SETTLEMENT_CURRENCY: Readonly<Record<string, string>> = {
  US: "usd",
  GB: "gbp",
  CA: "cad",
  CH: "chf",
  ...Object.fromEntries(EURO.map((country) => [country, "eur"])),
  DK: "dkk",
  SE: "sek",
  NO: "nok",
  PL: "pln",
  CZ: "czk",
  HU: "huf",
  RO: "ron",
  LI: "chf",
  // Outside the cross-border region: creators in the platform's own country only.
  AU: "aud",
  NZ: "nzd",
  SG: "sgd",
  HK: "hkd",
};

/** The platform countries this app supports (STRIPE_PLATFORM_COUNTRY). */
export const PLATFORM_COUNTRIES: readonly string[] = Object.keys(SETTLEMENT_CURRENCY);

/** Every ISO 3166-1 alpha-2 country a creator may say they live in (the onboarding select). */
const ALL_COUNTRIES = (
  "AD AE AF AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ " +
  "DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GT GU GW GY HK HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP " +
  "KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ " +
  "OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TG TH TJ TK TL TM TN TO TR TT TV TW TZ " +
  "UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
).split(" ");

export type ServiceAgreement = "full" | "recipient";

export type PayoutCountryRule =
  | { payable: true; serviceAgreement: ServiceAgreement; crossBorder: boolean }
  | { payable: false; reason: string };

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** A country's English name ("FR" → "France"). */
export function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** A two-letter code this module knows, uppercased; null otherwise. */
export function normalizeCountry(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const code = value.trim().toUpperCase();
  return ALL_COUNTRIES.includes(code) ? code : null;
}

/** The countries a creator chooses from, by English name. */
export function countryChoices(): { code: string; name: string }[] {
  return ALL_COUNTRIES.map((code) => ({ code, name: countryName(code) })).sort((a, b) =>
    a.name.localeCompare(b.name, "en"),
  );
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
  if (!CROSS_BORDER_COUNTRIES.includes(platformCountry)) {
    return {
      payable: false,
      reason: `Stripe cannot pay creators in ${creator} from this platform: a platform in ${platform} can only pay creators in ${platform}.`,
    };
  }
  if (!CROSS_BORDER_COUNTRIES.includes(creatorCountry)) {
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
