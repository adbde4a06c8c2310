import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { jsonResponse } from "~/web/http.server";
import { creatorIntegrations } from "~/features/publishing/procedures/integrations.server";
import { withPlatformNames } from "~/features/publishing/platforms";

/** GET /api/marketplace-integrations: the creator's platforms by display name. */
const routes = apiRoutes({
  GET: apiHandler(creatorIntegrations, { respond: (list) => jsonResponse(withPlatformNames(list)) }),
});
export const loader = routes.loader;
export const action = routes.action;
