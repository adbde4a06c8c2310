import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { deleteIntegration } from "~/features/publishing/procedures/integrations.server";

/** DELETE /api/token-marketplace-integrations/{platform}: 204; the stored credential is gone. */
const routes = apiRoutes({ DELETE: apiHandler(deleteIntegration, { status: 204 }) });
export const loader = routes.loader;
export const action = routes.action;
