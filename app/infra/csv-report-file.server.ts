import { Readable } from "node:stream";
import type { DownloadFile } from "~/infra/api-entry.server";
import { PRODUCT_NAME } from "~/lib/product";

/**
 * A CSV report as a file to download, named for the product, what it reports
 * and the day (UTC) it was made: selfie-studio-<kind>-YYYY-MM-DD.csv.
 */
export function csvReportFile(csv: string, kind: string, now: Date): DownloadFile {
  const product = PRODUCT_NAME.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const bytes = Buffer.from(csv, "utf8");
  return {
    stream: () => Readable.from([bytes]),
    size: bytes.length,
    fileName: `${product}-${kind}-${now.toISOString().slice(0, 10)}.csv`,
  };
}
