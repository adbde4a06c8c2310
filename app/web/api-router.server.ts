import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { ApiRoute, Respond, Shape } from "~/infra/api-entry.server";
import {
  apiHandler,
  apiMethodNotAllowed,
  apiNotFound,
  rawBodyHandler,
} from "~/web/api-adapter.server";
import { CSV_CONTENT_TYPE, fileDownload } from "~/web/file-download.server";
import { jsonResponse } from "~/web/http.server";
import { apiPathPattern } from "~/web/api-paths.server";

/**
 * The router over the /api route table. The entry's type lives in the
 * procedure kit (app/infra/api-entry.server.ts), where the features that
 * declare entries may name it; it is re-exported here for the edge.
 */
export type {
  ApiAnswer,
  ApiAuth,
  ApiCall,
  ApiInput,
  ApiMethod,
  ApiRoute,
  Respond,
} from "~/infra/api-entry.server";
export { responding, routeAccess, shaping } from "~/infra/api-entry.server";

type Args = LoaderFunctionArgs | ActionFunctionArgs;
type Handler = (args: Args) => Promise<Response>;

/** The Remix loader and action of one /api path: each method to its entry's handler, any other a JSON 405 with `Allow`. */
export interface ApiPathRoute {
  loader: Handler;
  action: Handler;
}

interface CompiledPath {
  path: string;
  matcher: RegExp;
  names: string[];
  /** Remix's ranking: a static segment outweighs a parameter (`/upload` before `/{id}`). */
  score: number;
  route: ApiPathRoute;
}

export interface ApiRouter {
  /** The loader and action of the /api splat route: the request's path chooses the endpoint. */
  loader: Handler;
  action: Handler;
  /** One path's loader and action, called with the path parameters as given. */
  forPath(path: string): ApiPathRoute;
}

/**
 * Answers /api requests from the route table: the request's path is matched
 * against the entries' paths as Remix matches route paths (case-insensitive,
 * a trailing slash ignored, parameters decoded), the method chooses the entry.
 * An unknown path is a JSON 404; a known path with a method it does not take
 * a JSON 405 with `Allow` (HEAD is answered as GET).
 */
export function apiRouter(routes: readonly ApiRoute[]): ApiRouter {
  const byPath = new Map<string, ApiRoute[]>();
  for (const route of routes) {
    const same = byPath.get(route.path) ?? [];
    if (same.some((other) => other.method === route.method))
      throw new Error(`${route.method} ${route.path} is in the table twice`);
    byPath.set(route.path, [...same, route]);
  }
  const compiled: CompiledPath[] = [...byPath].map(([path, entries]) =>
    compilePath(path, pathRoute(entries, routes)),
  );
  const dispatch: Handler = async (args) => {
    const encoded = new URL(args.request.url).pathname;
    const pathname = decodedAsRemixDecodes(encoded) ?? encoded;
    let best: { path: CompiledPath; params: Record<string, string> } | undefined;
    for (const path of compiled) {
      const match = path.matcher.exec(pathname);
      if (!match || (best && best.path.score >= path.score)) continue;
      best = {
        path,
        params: Object.fromEntries(
          path.names.map((name, index) => [name, match[index + 1].replace(/%2F/g, "/")]),
        ),
      };
    }
    if (!best) return apiNotFound();
    return best.path.route.loader({ ...args, params: best.params });
  };
  const paths = new Map(compiled.map((path) => [path.path, path.route]));
  TABLES.set(dispatch, routes);
  return {
    loader: dispatch,
    action: dispatch,
    forPath(path) {
      const route = paths.get(path);
      if (!route) throw new Error(`${path} is not in the /api route table`);
      return route;
    },
  };
}

function pathRoute(entries: readonly ApiRoute[], routes: readonly ApiRoute[]): ApiPathRoute {
  const handlers = new Map(
    entries.map((entry) => [entry.method as string, handlerOf(entry, routes)]),
  );
  const allowed = entries.map((entry) => entry.method).join(", ");
  const dispatch: Handler = (args) => {
    const method = args.request.method.toUpperCase();
    const handler = handlers.get(method === "HEAD" ? "GET" : method);
    return handler ? handler(args) : Promise.resolve(apiMethodNotAllowed(allowed));
  };
  return { loader: dispatch, action: dispatch };
}

function handlerOf(route: ApiRoute, routes: readonly ApiRoute[]): Handler {
  const { handle, procedure } = route;
  if (handle)
    return async ({ request, context, params }) => handle({ request, context, params, routes });
  if (route.answer === "redirect" || route.answer === "page-or-redirect")
    throw new Error(`${route.method} ${route.path} answers a ${route.answer} but has no handler`);
  if (!procedure)
    throw new Error(`${route.method} ${route.path} has neither a procedure nor a handler`);
  if (route.rawBody) return rawBodyHandler(procedure, route.rawBody);
  return apiHandler(procedure, {
    body: route.input === "json" ? "json" : "none",
    status: route.status,
    respond: responderOf(route),
  });
}

const FILE_TYPES: Partial<Record<NonNullable<ApiRoute["answer"]>, string>> = {
  zip: "application/zip",
  pdf: "application/pdf",
  csv: CSV_CONTENT_TYPE,
};

/** The entry's own `respond`; JSON of its `shape` with its status; a file for a zip, PDF or CSV answer. */
function responderOf(route: ApiRoute): Respond<unknown> | undefined {
  if (route.respond) return route.respond as Respond<unknown>;
  const shape = route.shape as Shape<unknown> | undefined;
  if (shape)
    return async (result, caller, ctx) =>
      jsonResponse(await shape(result, caller, ctx), { status: route.status });
  const fileType = route.answer && FILE_TYPES[route.answer];
  if (fileType) return fileDownload(fileType) as Respond<unknown>;
  return undefined;
}

/** The table each router's loader and action answer from (the edge reads it from the server build). */
const TABLES = new WeakMap<Handler, readonly ApiRoute[]>();

/** The route table a router's loader or action answers from, or undefined for any other function. */
export function routeTableOf(handler: unknown): readonly ApiRoute[] | undefined {
  return typeof handler === "function" ? TABLES.get(handler as Handler) : undefined;
}

/** `/api/token-images/{id}/stylize` as a matcher, the way Remix compiles `/api/token-images/:id/stylize`. */
function compilePath(path: string, route: ApiPathRoute): CompiledPath {
  return { path, ...apiPathPattern(path), route };
}

/** Each segment decoded as Remix decodes the path before matching (an encoded slash stays `%2F`); null when one does not decode. */
export function decodedAsRemixDecodes(pathname: string): string | null {
  try {
    return pathname
      .split("/")
      .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
      .join("/");
  } catch {
    return null;
  }
}
