import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { revokeSession } from "~/features/accounts/procedures/security.server";

/** DELETE /api/account/sessions/{id}: ends one of the user's web sessions or API tokens. */
const routes = apiRoutes({ DELETE: apiHandler(revokeSession, { status: 204 }) });
export const loader = routes.loader;
export const action = routes.action;
