import type { LoaderFunctionArgs } from "@remix-run/node";
import { attemptProcedure } from "~/web/screen-action.server";
import { presignedDownloadRedirect, storedFileResponse } from "~/web/stored-file.server";
import { errorResponse } from "~/web/http.server";
import { attachmentDisposition } from "~/lib/content-disposition";
import {
  RefundedDownloadError,
  downloadPurchase,
} from "~/features/market/library/procedures.server";
import { refundedDownloadPage } from "~/web/refunded-download-page.server";
import { deniedDownloadPage, wantsHtml } from "~/web/denied-download-page.server";

/**
 * GET /downloads/{token} (public): the purchased, clean, full-resolution file
 * as an attachment. 403 when the link is unknown, expired or used up, or
 * while a dispute suspends the order: a page pointing to /library for a
 * browser (Accept: text/html), else JSON; 410 and a page saying so when the
 * order was refunded.
 * A HEAD request checks the link without spending a download. Only this
 * site may load it (Cross-Origin-Resource-Policy: same-origin); a buyer's
 * navigation to the link is not affected.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { request, params } = args;
  try {
    const outcome = await attemptProcedure(
      downloadPurchase,
      args,
      { token: params.token ?? "", count: request.method !== "HEAD" },
      null,
    );
    if (!outcome.ok) {
      const { error } = outcome.refusal;
      if (error instanceof RefundedDownloadError) return refundedDownloadPage(error.refundedAt);
      // A browser gets a page with the way forward; other clients keep the JSON answer.
      if (error.status === 403 && request.method !== "HEAD" && wantsHtml(request))
        return deniedDownloadPage(error.message, error.status);
      return errorResponse(error);
    }
    const file = outcome.result;
    // With object storage the bytes come from the store: the download was counted, the link lives a minute.
    if (request.method !== "HEAD") {
      const redirect = await presignedDownloadRedirect(file.fileKey, file.filename);
      if (redirect) return redirect;
    }
    return await storedFileResponse(
      file.fileKey,
      {
        "Content-Type": file.mimeType,
        "Content-Disposition": attachmentDisposition(file.filename),
        "Cache-Control": "private, no-store",
        "X-Downloads-Left": String(file.downloadsLeft),
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Cross-Origin-Resource-Policy": "same-origin",
      },
      { head: request.method === "HEAD" },
    );
  } catch (error) {
    return errorResponse(error);
  }
}
