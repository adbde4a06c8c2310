import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { myListings } from "~/features/market/procedures/creator-listings.server";

/** GET /api/marketplace-listings: the signed-in creator's listings with their per-platform state. */
const routes = apiRoutes({ GET: apiHandler(myListings) });
export const loader = routes.loader;
export const action = routes.action;
