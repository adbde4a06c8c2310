import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import { apiRouter } from "~/web/api-router.server";

/**
 * Every /api request: the route table chooses the endpoint by path and method
 * (a JSON 404 for a path it does not have, a JSON 405 with `Allow` for a
 * method the path does not take), never the HTML page.
 */
const router = apiRouter(API_ROUTES);
export const loader = router.loader;
export const action = router.action;
