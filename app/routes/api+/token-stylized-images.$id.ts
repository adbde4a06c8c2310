import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { deleteStylizedImage, getStylizedImage } from "~/features/studio/procedures/styles.server";

/** GET /api/token-stylized-images/{id} (polled every 2 s while styling); DELETE removes it and its files. */
const routes = apiRoutes({
  GET: apiHandler(getStylizedImage),
  DELETE: apiHandler(deleteStylizedImage, { status: 204 }),
});
export const loader = routes.loader;
export const action = routes.action;
