import type { ServerBuild } from "@remix-run/node";
import type { ApiRoute } from "~/infra/api-entry.server";
import type { HandleRequest } from "./remix-handler.server";
import { routeTableOf } from "./api-router.server";
import { API_PATH } from "./unroutable-api-paths.server";

/** The /api splat route's path as the build holds it (app/routes/api+/$.ts). */
const API_ROUTE_PATH = "api/*";

/**
 * Remix's handler, with every /api request handed straight to the /api
 * route's loader (GET, HEAD) or action (any other method), whose router
 * chooses the endpoint from the route table. Remix would answer the same:
 * for a resource route it runs no parent loader and returns the Response the
 * route answered or threw as it is. What it skips is Remix's route matching,
 * which flattens and ranks every route of the site on each request, twice:
 * about half a millisecond of each API call's processor time (decision 079).
 * A failure that is not a Response goes to the edge's last error handler,
 * which answers /api in JSON (500, or 503 when the database is unreachable).
 */
export function apiRequestsFirst(build: ServerBuild, remix: HandleRequest): HandleRequest {
  const { loader, action } = apiRouteOf(build);
  return async (request, context) => {
    if (!API_PATH.test(new URL(request.url).pathname)) return remix(request, context);
    const run = request.method === "GET" || request.method === "HEAD" ? loader : action;
    let answer: unknown;
    try {
      answer = await run({ request, context, params: {} });
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
    if (answer instanceof Response) return answer;
    throw new Error(
      `${request.method} ${new URL(request.url).pathname}: the /api route answered no Response`,
    );
  };
}

function apiRouteOf(build: ServerBuild) {
  const api = Object.values(build.routes).find((route) => route?.path === API_ROUTE_PATH);
  const loader = api?.module.loader;
  const action = api?.module.action;
  if (!loader || !action)
    throw new Error("The server build has no /api route with a loader and an action");
  return { loader, action };
}

/**
 * The /api route table the build's /api route answers from (its loader is
 * the router's, app/web/api-router.server.ts): the edge takes from it the
 * /api upload paths and the signed webhooks, so neither is named by hand.
 */
export function apiRouteTableOf(build: ServerBuild): readonly ApiRoute[] {
  const table = routeTableOf(apiRouteOf(build).loader);
  if (!table) throw new Error("The server build's /api route does not answer from a route table");
  return table;
}
