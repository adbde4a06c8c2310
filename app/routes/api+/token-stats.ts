import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { tokenStats } from "~/features/payouts/procedures.server";

/** GET /api/token-stats: the signed-in creator's studio and sales numbers. */
const routes = apiRoutes({ GET: apiHandler(tokenStats) });
export const loader = routes.loader;
export const action = routes.action;
