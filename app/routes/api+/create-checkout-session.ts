import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { createCheckoutSession } from "~/features/market/procedures.server";

/** POST /api/create-checkout-session: public; prices come from the database. */
const routes = apiRoutes({ POST: apiHandler(createCheckoutSession, { body: "json" }) });
export const loader = routes.loader;
export const action = routes.action;
