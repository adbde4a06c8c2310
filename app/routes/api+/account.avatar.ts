import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { uploadAvatar } from "~/features/accounts/procedures/profile.server";

/** POST /api/account/avatar: multipart, one file field `image`; 200 with the account and its new photo. */
const routes = apiRoutes({ POST: apiHandler(uploadAvatar) });
export const loader = routes.loader;
export const action = routes.action;
