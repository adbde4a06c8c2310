import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { tokenEarnings } from "~/features/payouts/procedures.server";

/** GET /api/token-earnings: the signed-in creator's share of each sale. */
const routes = apiRoutes({ GET: apiHandler(tokenEarnings) });
export const loader = routes.loader;
export const action = routes.action;
