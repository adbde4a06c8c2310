import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { adminPayouts } from "~/features/payouts/procedures/admin-payouts.server";

/** GET /api/admin/payouts (super admin only): every creator's payout account and balance. */
const routes = apiRoutes({ GET: apiHandler(adminPayouts) });
export const loader = routes.loader;
export const action = routes.action;
