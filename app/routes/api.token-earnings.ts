import { apiHandler, apiRoutes } from "~/server/api-adapter.server";
import { tokenEarnings } from "~/procedures/earnings.server";

/** GET /api/token-earnings (api.md). */
const routes = apiRoutes({ GET: apiHandler(tokenEarnings) });
export const loader = routes.loader;
export const action = routes.action;
