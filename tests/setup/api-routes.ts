import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import type { ApiPathRoute } from "~/web/api-router.server";
import { apiRouter } from "~/web/api-router.server";

const router = apiRouter(API_ROUTES);

/**
 * One /api path's loader and action, as the router answers it once the path
 * is matched: `apiRoute("/api/token-images/{id}/stylize").action(...)` with
 * the path parameters given as `params` (the request's URL is not read to
 * choose the endpoint).
 */
export function apiRoute(path: string): ApiPathRoute {
  return router.forPath(path);
}

/**
 * Several paths' routes at once, under the names the test calls them by:
 * `const { upload, stylize } = apiRoutes({ upload: "/api/token-images/upload", stylize: … })`.
 */
export function apiRoutes<Name extends string>(
  paths: Record<Name, string>,
): Record<Name, ApiPathRoute> {
  const routes = Object.entries<string>(paths).map(([name, path]) => [name, apiRoute(path)]);
  return Object.fromEntries(routes) as Record<Name, ApiPathRoute>;
}
