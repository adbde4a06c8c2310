/**
 * Money: stored as integer cents; prices in requests are numbers or
 * numeric strings in dollars ("25", 25, 25.5); in answers a price is a string
 * in dollars ("25", "12.50").
 */

/** The least a listing may cost, in cents ($0.01). */
export const MIN_PRICE_CENTS = 1;
/** The most a single listing may cost, in cents ($10,000). */
export const MAX_PRICE_CENTS = 1_000_000;

/** Dollars (number or numeric string) to whole cents, or null when it is not a usable price. */
export function dollarsToCents(value: unknown): number | null {
  let dollars: number;
  if (typeof value === "number") dollars = value;
  else if (typeof value === "string" && /^\s*\$?\s*\d+(\.\d+)?\s*$/.test(value))
    dollars = Number(value.replace("$", ""));
  else return null;
  if (!Number.isFinite(dollars)) return null;
  const cents = Math.round(dollars * 100);
  if (cents < MIN_PRICE_CENTS || cents > MAX_PRICE_CENTS) return null;
  return cents;
}

/** Cents as the API's price string: "25" for whole dollars, otherwise "12.50". */
export function centsToPriceString(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}

/** Cents as a number of dollars (for totals in JSON answers). */
export function centsToDollarAmount(cents: number): number {
  return Math.round(cents) / 100;
}

/** Cents for people in the settlement currency, with its symbol: "$25.00", "€25.00", "£25.00", "CHF 25.00". */
export function formatMoney(cents: number, currency = "usd"): string {
  return formatAmount(cents / 100, currency);
}

/** An amount in whole units (dollars, euros, ...) with the currency's symbol (Intl.NumberFormat, always two decimals). */
export function formatAmount(amount: number, currency = "usd"): string {
  try {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: currency.toUpperCase(),
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency.toUpperCase()}`;
  }
}

/** What a price field says of anything it cannot take: the allowed range ("Enter a price between $0.01 and $10,000.00."). */
export const PRICE_RANGE_ERROR = `Enter a price between ${formatMoney(MIN_PRICE_CENTS)} and ${formatMoney(MAX_PRICE_CENTS)}.`;
