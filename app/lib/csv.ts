/**
 * CSV files people open in a spreadsheet (RFC 4180): fields joined by commas,
 * lines ended by CRLF. Text is always quoted, its quotes doubled, so a comma,
 * a quote or a line break inside it stays inside its cell. Text that starts
 * like a formula (`=`, `+`, `-`, `@`, a tab or a carriage return) gets a
 * leading apostrophe, so a spreadsheet shows it as text and never runs it
 * (CSV injection). Numbers are written bare: they are ours, never typed by
 * someone, and a spreadsheet reads them as numbers.
 */

/** A number written with a fixed number of decimals ("8.50"), bare. */
export interface CsvDecimal {
  decimal: string;
}

export type CsvValue = string | number | CsvDecimal;

/** Starts a formula in a spreadsheet (or hides one behind a control character). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** `value` with `digits` decimals, written bare in a CSV line. */
export function csvDecimal(value: number, digits: number): CsvDecimal {
  if (!Number.isFinite(value)) throw new Error(`Not a number for a CSV cell: ${value}`);
  return { decimal: value.toFixed(digits) };
}

/** Cents as units with two decimals ("8.50"), bare: a spreadsheet reads it as a number. */
export function csvAmount(cents: number): CsvDecimal {
  return csvDecimal(cents / 100, 2);
}

/**
 * Orders two texts by their code units, the same on every machine and
 * locale, so a report's rows come in the same order wherever it is made.
 */
export function compareCsvText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One CSV field: a number as it is; text quoted, quotes doubled, a leading formula character defused. */
export function csvCell(value: CsvValue): string {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`Not a number for a CSV cell: ${value}`);
    return String(value);
  }
  if (typeof value === "object") return value.decimal;
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** One CSV line, its CRLF included. */
export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
