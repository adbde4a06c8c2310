/**
 * The standard VAT rate of each EU member state and the United Kingdom, in
 * basis points (1900 = 19 %), as the built-in test checkout charges it on
 * digital services sold to consumers there (docs/decisions/102). Keys are
 * ISO 3166-1 alpha-2 country codes (Greece is GR here; its VAT numbers start
 * with EL).
 *
 * Source: the European Commission's "VAT rates applied in the Member States
 * of the European Union" (DG TAXUD, taxation_customs, the list of standard
 * rates), and GOV.UK's "VAT rates" for the United Kingdom; as they stood in
 * 2025 (Estonia 24 % from 1 July 2025, Romania 21 % from 1 August 2025,
 * Slovakia 23 % from 1 January 2025, Finland 25.5 % from 1 September 2024).
 * Table written 2026-11-30. Rates change: check the source and update this
 * table (and its date) before relying on it. Real payments are taxed by
 * Stripe Tax, whose rates Stripe keeps current; this table serves the test
 * checkout only. No npm package was a better fit: the ones found were either
 * EU-only without the UK, or fetched rates or validated numbers online.
 */
export const VAT_STANDARD_RATE_BPS: Readonly<Record<string, number>> = {
  AT: 2000,
  BE: 2100,
  BG: 2000,
  CY: 1900,
  CZ: 2100,
  DE: 1900,
  DK: 2500,
  EE: 2400,
  ES: 2100,
  FI: 2550,
  FR: 2000,
  GR: 2400,
  HR: 2500,
  HU: 2700,
  IE: 2300,
  IT: 2200,
  LT: 2100,
  LU: 1700,
  LV: 2100,
  MT: 1800,
  NL: 2100,
  PL: 2300,
  PT: 2300,
  RO: 2100,
  SE: 2500,
  SI: 2200,
  SK: 2300,
  GB: 2000,
};

/** The EU member states (the table less the United Kingdom). */
export const EU_COUNTRIES: readonly string[] = Object.keys(VAT_STANDARD_RATE_BPS).filter(
  (code) => code !== "GB",
);

/** The standard VAT rate of a country in the table, in basis points; null elsewhere. */
export function standardVatRateBps(country: string): number | null {
  return VAT_STANDARD_RATE_BPS[country] ?? null;
}

/** A rate in basis points as people write it: 1900 → "19%", 2550 → "25.5%". */
export function formatRate(bps: number): string {
  return `${(bps / 100).toFixed(2).replace(/\.?0+$/, "")}%`;
}
