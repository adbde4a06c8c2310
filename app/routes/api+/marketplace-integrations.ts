import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { displayIntegrations } from "~/features/publishing/procedures.server";

/** GET /api/marketplace-integrations: `[{platform: "OpenSea", isActive}]`, the own marketplace first. */
const routes = apiRoutes({ GET: apiHandler(displayIntegrations) });
export const loader = routes.loader;
export const action = routes.action;
