import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { creatorEarnings } from "~/features/payouts/procedures/earnings.server";

/** GET /api/token-earnings: the signed-in creator's share of each sale. */
const routes = apiRoutes({ GET: apiHandler(creatorEarnings) });
export const loader = routes.loader;
export const action = routes.action;
