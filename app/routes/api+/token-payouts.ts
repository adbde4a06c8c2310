import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { creatorPayouts } from "~/features/payouts/procedures/earnings.server";

/** GET /api/token-payouts: the signed-in creator's payout account, balance and transfers. */
const routes = apiRoutes({ GET: apiHandler(creatorPayouts) });
export const loader = routes.loader;
export const action = routes.action;
