import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { refundOrder } from "~/features/market/procedures/admin-orders.server";

/** POST /api/admin/orders/{orderId}/refund (body {reason?}; super admin only): 200 the refunded order. */
const routes = apiRoutes({ POST: apiHandler(refundOrder, { body: "json" }) });
export const loader = routes.loader;
export const action = routes.action;
