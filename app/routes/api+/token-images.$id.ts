import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { deleteImage, getImage } from "~/features/studio/procedures/images.server";

/** GET /api/token-images/{id} (with its stylized versions); DELETE removes it, its versions and their files. */
const routes = apiRoutes({ GET: apiHandler(getImage), DELETE: apiHandler(deleteImage, { status: 204 }) });
export const loader = routes.loader;
export const action = routes.action;
