import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { uploadImage } from "~/features/studio/procedures/images.server";

/** POST /api/token-images/upload: multipart, one file field `image`; 201 with the image. */
const routes = apiRoutes({ POST: apiHandler(uploadImage, { status: 201 }) });
export const loader = routes.loader;
export const action = routes.action;
