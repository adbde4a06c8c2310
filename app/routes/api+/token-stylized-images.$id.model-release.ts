import { createReadableStreamFromReadable } from "@remix-run/node";
import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { modelReleaseDownload, signModelReleaseProcedure, uploadModelRelease } from "~/features/publishing/procedures/model-releases.server";

/**
 * The model release of a stylized image: GET the PDF (its owner only); POST
 * (JSON) signs one for yourself; PUT (multipart, a PDF in the field
 * `release`) keeps a signed release you upload. A new release replaces the old.
 */
const routes = apiRoutes({
  GET: apiHandler(modelReleaseDownload, {
    respond: (file) =>
      new Response(createReadableStreamFromReadable(file.stream()), {
        headers: {
          "Content-Type": "application/pdf",
          "Content-Length": String(file.size),
          "Content-Disposition": `attachment; filename="${file.fileName}"`,
          "Cache-Control": "private, no-store",
          "X-Content-Type-Options": "nosniff",
          "Cross-Origin-Resource-Policy": "same-origin",
        },
      }),
  }),
  POST: apiHandler(signModelReleaseProcedure, { body: "json", status: 201 }),
  PUT: apiHandler(uploadModelRelease, { status: 201 }),
});
export const loader = routes.loader;
export const action = routes.action;
