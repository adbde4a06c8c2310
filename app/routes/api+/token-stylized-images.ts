import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { listStylizedImages } from "~/features/studio/procedures/styles.server";

/** GET /api/token-stylized-images: the caller's stylized images, newest first. */
const routes = apiRoutes({ GET: apiHandler(listStylizedImages) });
export const loader = routes.loader;
export const action = routes.action;
