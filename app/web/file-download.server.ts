import { createReadableStreamFromReadable } from "@remix-run/node";
import type { DownloadFile } from "~/infra/api-entry.server";

/**
 * The answer to a private file download (a publication's zip, a model
 * release's PDF, a creator's sales CSV: an /api entry whose `answer` is `zip`,
 * `pdf` or `csv`): streamed as an attachment, never cached or sniffed, and
 * not embeddable by other sites.
 */
/** The media type of a CSV file download (UTF-8 text). */
export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8";

export function fileDownload(contentType: string) {
  return (file: DownloadFile) =>
    new Response(createReadableStreamFromReadable(file.stream()), {
      headers: {
        "Content-Type": contentType,
        "Content-Length": String(file.size),
        "Content-Disposition": `attachment; filename="${file.fileName}"`,
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
        "Cross-Origin-Resource-Policy": "same-origin",
      },
    });
}
