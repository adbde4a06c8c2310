import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { adminStats } from "~/features/admin/procedures/stats-and-audit.server";

/** GET /api/admin/stats (super admin only). */
const routes = apiRoutes({ GET: apiHandler(adminStats) });
export const loader = routes.loader;
export const action = routes.action;
