import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { postToMarketplaces } from "~/features/publishing/procedures/launch.server";

/** POST /api/marketplace/post: `{results: [{success, platform, url?, authUrl?, error?}]}`. */
const routes = apiRoutes({ POST: apiHandler(postToMarketplaces, { body: "json" }) });
export const loader = routes.loader;
export const action = routes.action;
