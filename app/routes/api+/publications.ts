import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { imagePublications } from "~/features/publishing/procedures/launch.server";

/** GET /api/publications?imageId=: a stylized image's state on every platform it was sent to. */
const routes = apiRoutes({ GET: apiHandler(imagePublications) });
export const loader = routes.loader;
export const action = routes.action;
