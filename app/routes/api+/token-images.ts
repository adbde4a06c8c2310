import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { listImages } from "~/features/studio/procedures/images.server";

/** GET /api/token-images: the caller's originals, newest first, each with its stylized versions. */
const routes = apiRoutes({ GET: apiHandler(listImages) });
export const loader = routes.loader;
export const action = routes.action;
