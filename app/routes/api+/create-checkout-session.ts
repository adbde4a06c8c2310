import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { checkout } from "~/features/market/procedures/cart-and-checkout.server";

/** POST /api/create-checkout-session: public; prices come from the database. */
const routes = apiRoutes({ POST: apiHandler(checkout, { body: "json" }) });
export const loader = routes.loader;
export const action = routes.action;
