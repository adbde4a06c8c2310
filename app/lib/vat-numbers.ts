/**
 * VAT numbers of the EU member states and the United Kingdom, checked for
 * their format only: the country prefix and the shape of the digits and
 * letters after it (the European Commission's VIES formats; GOV.UK's for GB
 * and XI, Northern Ireland). No check digit is verified and no register is
 * asked (docs/decisions/102): a well-formed number can still be someone
 * else's or no one's.
 */
const FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  GB: /^(\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/,
  XI: /^(\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/,
};

/** The country (ISO 3166-1) of a VAT number's prefix: EL is Greece (GR), XI Northern Ireland (GB). */
const COUNTRY_OF_PREFIX: Readonly<Record<string, string>> = { EL: "GR", XI: "GB" };

/** As typed, without spaces, dots or dashes, upper case ("de 123.456.789" → "DE123456789"). */
export function normalizeVatNumber(value: string): string {
  return value.replace(/[\s.-]/g, "").toUpperCase();
}

/** A normalized number's country (ISO 3166-1 alpha-2) when it is well-formed; null otherwise. */
export function vatNumberCountry(normalized: string): string | null {
  const prefix = normalized.slice(0, 2);
  const format = FORMATS[prefix];
  if (!format || !format.test(normalized.slice(2))) return null;
  return COUNTRY_OF_PREFIX[prefix] ?? prefix;
}

/** What the form says of a VAT number that is not in a known format. */
export const MALFORMED_VAT_NUMBER =
  "Enter an EU or UK VAT number as it is written, starting with its country's two letters, such as DE123456789, or leave it empty.";
