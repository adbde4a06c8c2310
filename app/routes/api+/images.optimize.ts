import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { optimizeImage } from "~/features/studio/procedures/optimize.server";

/** POST /api/images/optimize: a delivery version of a completed stylized image; 200 with the StylizedImage. */
const routes = apiRoutes({ POST: apiHandler(optimizeImage, { body: "json" }) });
export const loader = routes.loader;
export const action = routes.action;
