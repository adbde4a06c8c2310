import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { adminUser } from "~/features/admin/procedures.server";

/** GET /api/admin/users/{userId} (super admin only). */
const routes = apiRoutes({ GET: apiHandler(adminUser) });
export const loader = routes.loader;
export const action = routes.action;
