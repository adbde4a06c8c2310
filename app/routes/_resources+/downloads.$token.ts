import type { LoaderFunctionArgs } from "@remix-run/node";
import { callContext } from "~/web/request-context.server";
import { storedFileResponse } from "~/web/stored-file.server";
import { errorResponse } from "~/web/http.server";
import { invoke } from "~/infra/procedure.server";
import { RefundedDownloadError, downloadPurchase } from "~/features/market/procedures.server";
import { refundedDownloadPage } from "~/web/refunded-download-page.server";

/**
 * GET /downloads/{token} (public): the purchased, clean, full-resolution file
 * as an attachment. 403 JSON when the link is unknown, expired or used up,
 * or while a dispute suspends the order; 410 and a page saying so when the
 * order was refunded.
 * A HEAD request checks the link without spending a download. Only this
 * site may load it (Cross-Origin-Resource-Policy: same-origin); a buyer's
 * navigation to the link is not affected.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  try {
    const file = await invoke(
      downloadPurchase,
      null,
      { token: params.token ?? "", count: request.method !== "HEAD" },
      callContext(request, context),
    );
    const ascii = file.filename.replace(/[^\x20-\x7e]|"/g, "_");
    return await storedFileResponse(
      file.fileKey,
      {
        "Content-Type": file.mimeType,
        "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
        "Cache-Control": "private, no-store",
        "X-Downloads-Left": String(file.downloadsLeft),
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Cross-Origin-Resource-Policy": "same-origin",
      },
      { head: request.method === "HEAD" },
    );
  } catch (error) {
    if (error instanceof RefundedDownloadError) return refundedDownloadPage(error.refundedAt);
    return errorResponse(error);
  }
}
