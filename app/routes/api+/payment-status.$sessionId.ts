import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { paymentStatus } from "~/features/market/procedures/payment-status.server";

/** GET /api/payment-status/{sessionId}: public; downloads only once paid; 404 unknown. */
const routes = apiRoutes({ GET: apiHandler(paymentStatus) });
export const loader = routes.loader;
export const action = routes.action;
