import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { callRoute } from "#tests/setup/requests";

/**
 * The /api routes as Remix sees them: found from the route files themselves
 * (app/routes/api+/*.ts, or a folder there with a route.ts), so a route added
 * later shows up in the reliability tests without anyone listing it. A route's
 * id is its flat name under /api: `api+/token-images.$id.ts` is `api.token-images.$id`.
 */

export const ROUTES_DIR = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../../app/routes");
const API_ROUTES_DIR = path.join(ROUTES_DIR, "api+");

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface ApiRouteFile {
  /** The route's module name, e.g. `api.token-images.$id.stylize`. */
  id: string;
  /** The module's path. */
  file: string;
  /** Its URL pattern, e.g. `/api/token-images/:id/stylize` (`*` for a splat). */
  pattern: string;
}

export function apiRouteFiles(): ApiRouteFile[] {
  const routes: ApiRouteFile[] = [];
  for (const entry of fs.readdirSync(API_ROUTES_DIR, { withFileTypes: true })) {
    if (entry.isFile()) {
      const match = /^(.+)\.(ts|tsx|js|jsx)$/.exec(entry.name);
      if (match && !/\.(test|server)$/.test(match[1])) {
        const id = `api.${match[1]}`;
        routes.push({ id, file: path.join(API_ROUTES_DIR, entry.name), pattern: urlPattern(id) });
      }
    } else if (entry.isDirectory()) {
      const routeFile = ["route.ts", "route.tsx", "route.js", "route.jsx"]
        .map((name) => path.join(API_ROUTES_DIR, entry.name, name))
        .find((file) => fs.existsSync(file));
      const id = `api.${entry.name}`;
      if (routeFile) routes.push({ id, file: routeFile, pattern: urlPattern(id) });
    }
  }
  return routes.sort((a, b) => a.id.localeCompare(b.id));
}

/** Remix v2 flat routes: dots are slashes, `$name` a parameter, a lone `$` a splat, `[x]` literal text. */
export function urlPattern(routeId: string): string {
  const dot = "\uE000"; // stands for a literal dot inside [brackets] while splitting
  const segments = routeId
    .replace(/\[([^\]]*)\]/g, (_, literal: string) => literal.split(".").join(dot))
    .split(".")
    .map((segment) => segment.split(dot).join("."))
    .filter((segment) => segment !== "_index" && !segment.startsWith("_"))
    .map((segment) => (segment === "$" ? "*" : segment.startsWith("$") ? `:${segment.slice(1)}` : segment.replace(/_$/, "")));
  return `/${segments.join("/")}`;
}

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => unknown;
export interface RouteModule {
  loader?: Handler;
  action?: Handler;
}

const modules = new Map<string, Promise<RouteModule>>();
export function loadRoute(route: ApiRouteFile): Promise<RouteModule> {
  let loaded = modules.get(route.file);
  if (!loaded) {
    loaded = import(/* @vite-ignore */ url.pathToFileURL(route.file).href) as Promise<RouteModule>;
    modules.set(route.file, loaded);
  }
  return loaded;
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
  return callRoute(handler, request, params, { clientIp: "203.0.113.7", nonce: "test", ...context });
}
