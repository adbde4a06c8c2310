import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { adminImages } from "~/features/admin/procedures/stats-and-audit.server";

/** GET /api/admin/images (super admin only): every uploaded original with its userId. */
const routes = apiRoutes({ GET: apiHandler(adminImages) });
export const loader = routes.loader;
export const action = routes.action;
