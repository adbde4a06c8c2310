import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { mySessions } from "~/features/accounts/procedures/security.server";

/** GET /api/account/sessions: the user's web sessions and API tokens. */
const routes = apiRoutes({ GET: apiHandler(mySessions) });
export const loader = routes.loader;
export const action = routes.action;
