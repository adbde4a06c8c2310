import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { creatorStats } from "~/features/payouts/procedures/earnings.server";

/** GET /api/token-stats: the signed-in creator's studio and sales numbers. */
const routes = apiRoutes({ GET: apiHandler(creatorStats) });
export const loader = routes.loader;
export const action = routes.action;
