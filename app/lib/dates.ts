/** A date as the product writes it on licenses and in the library, in UTC: "March 5, 2026". */
export function longDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
}
