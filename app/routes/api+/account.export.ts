import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { requestAccountExport } from "~/features/accounts/procedures/export.server";

/** POST /api/account/export: asks for a zip of the caller's data (202); while one is pending, the same export. */
const routes = apiRoutes({ POST: apiHandler(requestAccountExport, { status: 202 }) });
export const loader = routes.loader;
export const action = routes.action;
