import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { adminOrders } from "~/features/market/procedures/admin-orders.server";

/** GET /api/admin/orders (?q= an email part, or an exact order id or sale reference, ?status=): newest first, super admin only. */
const routes = apiRoutes({ GET: apiHandler(adminOrders) });
export const loader = routes.loader;
export const action = routes.action;
