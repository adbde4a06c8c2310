import { createReadableStreamFromReadable } from "@remix-run/node";
import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { publicationDownload } from "~/features/publishing/procedures/publications.server";

/** GET /api/publications/{id}/download?exp&sig: the owner's mint kit or export package (a zip). */
const routes = apiRoutes({
  GET: apiHandler(publicationDownload, {
    respond: (file) =>
      new Response(createReadableStreamFromReadable(file.stream()), {
        headers: {
          "Content-Type": "application/zip",
          "Content-Length": String(file.size),
          "Content-Disposition": `attachment; filename="${file.fileName}"`,
          "Cache-Control": "private, no-store",
          "X-Content-Type-Options": "nosniff",
          "Cross-Origin-Resource-Policy": "same-origin",
        },
      }),
  }),
});
export const loader = routes.loader;
export const action = routes.action;
