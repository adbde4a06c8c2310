/**
 * What every ZIP file we write holds to, whether built in memory (the kits)
 * or streamed to a file (the data exports): entry names are safe relative
 * paths we choose, and entries are stamped with a time the ZIP format can hold.
 */

const SAFE_NAME = /^[A-Za-z0-9._/-]{1,200}$/;

/** Throws unless `name` is ASCII letters, digits, `._-` and `/` between non-empty segments, none `.` or `..`. */
export function assertSafeEntryName(name: string): void {
  if (
    !SAFE_NAME.test(name) ||
    name.split("/").some((part) => part === "" || part === "." || part === "..")
  ) {
    throw new Error(`Unsafe zip entry name: ${name}`);
  }
}

/**
 * The time to hand fflate, which writes the DOS date fields from a Date's local
 * time: a Date whose local fields are `date`'s UTC fields, within the years a
 * ZIP can hold.
 */
export function zipTime(date: Date): Date {
  const year = Math.min(2099, Math.max(1980, date.getUTCFullYear()));
  return new Date(
    year,
    date.getUTCMonth(),
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
  );
}
