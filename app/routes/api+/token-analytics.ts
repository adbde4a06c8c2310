import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { creatorAnalytics } from "~/features/market/procedures/creator-insights.server";

/** GET /api/token-analytics?days=7|30|90: the signed-in creator's numbers per day and per listing. */
const routes = apiRoutes({ GET: apiHandler(creatorAnalytics) });
export const loader = routes.loader;
export const action = routes.action;
