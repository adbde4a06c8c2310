import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { oauthAuthorize } from "~/features/publishing/procedures/integrations.server";

/** GET /api/oauth/{platform}/authorize?shop=: `{authUrl}` to open in the popup; 400 for a platform without OAuth. */
const routes = apiRoutes({ GET: apiHandler(oauthAuthorize) });
export const loader = routes.loader;
export const action = routes.action;
