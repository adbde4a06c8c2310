import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { changeUserStatus } from "~/features/admin/procedures/bans.server";

/** POST /api/admin/users/{userId}/ban and /unban (super admin only): 200 the user. */
const routes = apiRoutes({ POST: apiHandler(changeUserStatus) });
export const loader = routes.loader;
export const action = routes.action;
