import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { adminUser } from "~/features/admin/procedures/users.server";
import { eraseUser } from "~/features/erasure/procedures/erasure.server";

/** GET /api/admin/users/{userId}; DELETE erases the account (202; 400 for the super admin) (super admin only). */
const routes = apiRoutes({ GET: apiHandler(adminUser), DELETE: apiHandler(eraseUser, { status: 202 }) });
export const loader = routes.loader;
export const action = routes.action;
