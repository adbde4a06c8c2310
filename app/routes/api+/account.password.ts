import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { changePassword } from "~/features/accounts/procedures/security.server";

/** POST /api/account/password: the password change; other sessions and tokens end. */
const routes = apiRoutes({ POST: apiHandler(changePassword, { body: "json", status: 204 }) });
export const loader = routes.loader;
export const action = routes.action;
