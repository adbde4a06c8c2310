import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { jsonResponse } from "~/web/http.server";
import { stylizeImage } from "~/features/studio/procedures/styles.server";

/** POST /api/token-images/{id}/stylize {style}: 202 {id, status} at once; a durable job does the work. */
const routes = apiRoutes({
  POST: apiHandler(stylizeImage, {
    body: "json",
    respond: (stylized) => jsonResponse({ id: stylized.id, status: stylized.status }, { status: 202 }),
  }),
});
export const loader = routes.loader;
export const action = routes.action;
