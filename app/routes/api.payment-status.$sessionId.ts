import { apiHandler, apiRoutes } from "~/server/api-adapter.server";
import { paymentStatus } from "~/procedures/checkout.server";

/** GET /api/payment-status/{sessionId}: public; downloads only once paid; 404 unknown. */
const routes = apiRoutes({ GET: apiHandler(paymentStatus) });
export const loader = routes.loader;
export const action = routes.action;
