import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { browseMarketplace } from "~/features/market/procedures/catalog.server";

/** GET /api/marketplace: public, ?style ?q ?cursor ?limit. */
const routes = apiRoutes({ GET: apiHandler(browseMarketplace) });
export const loader = routes.loader;
export const action = routes.action;
