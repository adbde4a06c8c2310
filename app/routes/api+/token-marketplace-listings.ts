import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { myListings } from "~/features/market/procedures/creator-listings.server";

/** GET /api/token-marketplace-listings: the same as /api/marketplace-listings, for token clients. */
const routes = apiRoutes({ GET: apiHandler(myListings) });
export const loader = routes.loader;
export const action = routes.action;
