import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { adminAuditLog } from "~/features/admin/procedures/stats-and-audit.server";

/** GET /api/admin/audit (super admin only): the audit log, newest first, `limit` entries after `cursor`. */
const routes = apiRoutes({ GET: apiHandler(adminAuditLog) });
export const loader = routes.loader;
export const action = routes.action;
