import { createReadableStreamFromReadable } from "@remix-run/node";
import type { Readable } from "node:stream";

/** A stored file handed to its owner: a procedure's result that the answer streams. */
interface DownloadFile {
  stream(): Readable;
  size: number;
  fileName: string;
}

/**
 * The answer to a private file download (a publication's zip, a model
 * release's PDF): streamed as an attachment, never cached or sniffed, and
 * not embeddable by other sites.
 */
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
