import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { createIntegration, creatorIntegrations } from "~/features/publishing/procedures/integrations.server";

/**
 * GET /api/token-marketplace-integrations: `[{platform: "opensea", isActive}]`.
 * POST: `{platform, apiKey, walletAddress?, shopDomain?}` -> 201 with `apiKeyLast4` (the key is never echoed).
 */
const routes = apiRoutes({
  GET: apiHandler(creatorIntegrations),
  POST: apiHandler(createIntegration, { body: "json", status: 201 }),
});
export const loader = routes.loader;
export const action = routes.action;
