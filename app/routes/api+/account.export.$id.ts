import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { accountExport } from "~/features/accounts/procedures/export.server";

/** GET /api/account/export/{id}: one of the caller's exports, with its download link while it works. */
const routes = apiRoutes({ GET: apiHandler(accountExport) });
export const loader = routes.loader;
export const action = routes.action;
