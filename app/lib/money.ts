/**
 * Money: stored as integer cents; prices in requests are numbers or
 * numeric strings in dollars ("25", 25, 25.5); in answers a price is a string
 * in dollars ("25", "12.50").
 */

/** The most a single listing may cost, in cents ($10,000). */
export const MAX_PRICE_CENTS = 1_000_000;

/** Dollars (number or numeric string) to whole cents, or null when it is not a usable price. */
export function dollarsToCents(value: unknown): number | null {
  let dollars: number;
  if (typeof value === "number") dollars = value;
  else if (typeof value === "string" && /^\s*\$?\s*\d+(\.\d+)?\s*$/.test(value)) dollars = Number(value.replace("$", ""));
  else return null;
  if (!Number.isFinite(dollars)) return null;
  const cents = Math.round(dollars * 100);
  if (cents <= 0 || cents > MAX_PRICE_CENTS) return null;
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

/** Cents for people: "$25.00". */
export function formatMoney(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
