import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import * as splat from "~/routes/api+/$";
import { apiRoute } from "#tests/setup/api-routes";
import { callRoute } from "#tests/setup/requests";
import { testTies } from "#tests/setup/ties";

/**
 * The /api paths as the router answers them: found from the route table
 * itself (app/routes/api+/api-route-table.server.ts), so an endpoint added
 * later shows up in the reliability tests without anyone listing it, and the
 * catch-all (`api.$`, the splat route) that answers every other /api path. A
 * path's id is its flat name under /api, as a Remix route file would be
 * named: `/api/token-images/{id}` is `api.token-images.$id`.
 */

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The catch-all's id: the /api splat route. */
export const CATCH_ALL = "api.$";

export interface ApiPath {
  /** The path's flat name, e.g. `api.token-images.$id.stylize`. */
  id: string;
  /** Its URL pattern, e.g. `/api/token-images/:id/stylize` (`/api/*` for the catch-all). */
  pattern: string;
}

export function apiPaths(): ApiPath[] {
  const paths = [...new Set(API_ROUTES.map((route) => route.path))].map((path) => ({
    id: flatName(path),
    pattern: path.replace(/\{(\w+)\}/g, ":$1"),
  }));
  return [...paths, { id: CATCH_ALL, pattern: "/api/*" }].sort((a, b) => a.id.localeCompare(b.id));
}

/** `/api/token-images/{id}/stylize` as a flat route name: `api.token-images.$id.stylize` (a literal dot in brackets). */
function flatName(path: string): string {
  return path
    .split("/")
    .filter(Boolean)
    .map((segment) => segment.replace(/^\{(\w+)\}$/, "$$$1").replace(/\./g, "[.]"))
    .join(".");
}

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => unknown;
export interface RouteModule {
  loader?: Handler;
  action?: Handler;
}

/** A path's loader and action: the table's endpoints on that path, or the catch-all's. */
export async function loadRoute(route: ApiPath): Promise<RouteModule> {
  if (route.id === CATCH_ALL) return splat as RouteModule;
  return apiRoute(route.pattern.replace(/:(\w+)/g, "{$1}")) as RouteModule;
}

/**
 * Calls the route as Remix would: the loader for GET (and HEAD), the action for
 * every other method. A module without the export cannot answer with JSON, so
 * that is a failure here rather than Remix's own HTML 405.
 */
export async function callApiRoute(
  module: RouteModule,
  request: Request,
  params: Record<string, string> = {},
  context?: { clientIp?: string; nonce?: string },
): Promise<Response> {
  const get = request.method === "GET" || request.method === "HEAD";
  const handler = get ? module.loader : module.action;
  if (!handler) {
    throw new Error(
      `${new URL(request.url).pathname} has no ${get ? "loader" : "action"}: Remix would answer ${request.method} with its own non-JSON response`,
    );
  }
  return callRoute(handler, request, params, {
    ties: testTies,
    clientIp: "203.0.113.7",
    nonce: "test",
    ...context,
  });
}
