import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { adminCreateUser, adminUsers } from "~/features/admin/procedures/users.server";

/** GET /api/admin/users (?q=) and POST /api/admin/users (create a user); super admin only. */
const routes = apiRoutes({
  GET: apiHandler(adminUsers),
  POST: apiHandler(adminCreateUser, { body: "json", status: 201 }),
});
export const loader = routes.loader;
export const action = routes.action;
