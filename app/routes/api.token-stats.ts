import { apiHandler, apiRoutes } from "~/server/api-adapter.server";
import { tokenStats } from "~/procedures/earnings.server";

/** GET /api/token-stats: the signed-in creator's studio and sales numbers. */
const routes = apiRoutes({ GET: apiHandler(tokenStats) });
export const loader = routes.loader;
export const action = routes.action;
