import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { launchMarketing } from "~/features/publishing/procedures/launch.server";

/** POST /api/marketplace/launch: publishes to each platform and answers what really happened there. */
const routes = apiRoutes({ POST: apiHandler(launchMarketing, { body: "json" }) });
export const loader = routes.loader;
export const action = routes.action;
