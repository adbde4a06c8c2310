import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import type { Access, AnyProcedure } from "~/infra/procedure.server";
import type { CallContext } from "~/infra/call-context.server";
import type { Caller } from "~/web/auth.server";
import type { RawBody } from "~/web/api-adapter.server";
import {
  apiHandler,
  apiMethodNotAllowed,
  apiNotFound,
  rawBodyHandler,
} from "~/web/api-adapter.server";

/**
 * The /api route table's entry: everything the router needs to answer an
 * endpoint and the OpenAPI document needs to describe it. One entry is one
 * method on one path; the table (app/routes/api+/api-route-table.server.ts)
 * is the only place an endpoint is declared.
 */

export type ApiMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Where an endpoint's input comes from besides its path parameters:
 * - `query`: the procedure's other input fields, as query parameters;
 * - `json`: the procedure's other input fields, as a JSON object body;
 * - `multipart`: a multipart/form-data body with one file in the field `image` (or the route's `uploadField`);
 * - `signed-json`: a JSON body read as raw bytes for its signature (`signature` names the header; Stripe's unless said);
 * - `provider-query`: query parameters chosen by the OAuth provider, passed on as they are;
 * - `none`: nothing else.
 */
export type ApiInput = "none" | "query" | "json" | "multipart" | "signed-json" | "provider-query";

/**
 * How the endpoint knows its caller: a bearer token or the session cookie (a
 * bearer token that is sent but not valid is a 401), the session cookie only,
 * or not at all.
 */
export type ApiAuth = "bearer-or-cookie" | "cookie" | "none";

/** What a successful answer carries: JSON (nothing for a 204), a zip file, a PDF, a redirect, or a small page or a redirect. */
export type ApiAnswer = "json" | "zip" | "pdf" | "redirect" | "page-or-redirect";

/** Turns a procedure's result into the answer, when it is not plain JSON of the result. */
export type Respond<R> = (
  result: R,
  caller: Caller,
  ctx: CallContext,
) => Response | Promise<Response>;

/** What a hand-written endpoint gets: the request, its path parameters, and the table it was found in. */
export interface ApiCall {
  request: Request;
  context: AppLoadContext;
  params: Record<string, string | undefined>;
  routes: readonly ApiRoute[];
}

export interface ApiRoute {
  method: ApiMethod;
  /** The path in OpenAPI form, e.g. `/api/token-images/{id}/stylize`; `{name}` is a path parameter. */
  path: string;
  summary: string;
  /** The procedure the endpoint calls, when it calls one. */
  procedure?: AnyProcedure;
  /** The operation's name when it is not the procedure's (a procedure behind two endpoints, or none). */
  operationId?: string;
  /** Who may call it, for an endpoint without a procedure (the procedure's access otherwise). */
  access?: Access;
  auth: ApiAuth;
  input: ApiInput;
  /** The status of a successful answer; a 204 sends no body. */
  status: number;
  /** JSON unless said. */
  answer?: ApiAnswer;
  /** For `signed-json`: the header carrying the signature and what signed the body (Stripe's `Stripe-Signature` unless said). */
  signature?: { header: string; description: string; body: string };
  /** For `signed-json`: how much of the raw body is read, as text or bytes, and which headers go along as input fields. */
  rawBody?: RawBody;
  /** For `multipart`: the file's field when it is not the image upload's `image` (its name, media type and what it is). */
  uploadField?: { name: string; contentType: string; description: string };
  /** Query parameters of an endpoint without a procedure to read them from. */
  query?: { name: string; description: string }[];
  /**
   * Error statuses particular to this endpoint; the ones that follow from its
   * auth, input and access (400, 401, 403, 413, 500) are added by the document.
   */
  errors?: number[];
  /** Turns the procedure's result into the answer (see `responding` for a typed one). */
  respond?: Respond<never>;
  /** Answers the endpoint by hand: a redirect, a page, or what no procedure gives. */
  handle?: (call: ApiCall) => Response | Promise<Response>;
}

/** Who may call an endpoint: its procedure's access, or the table's for one without a procedure. */
export function routeAccess(route: ApiRoute): Access {
  const access = route.procedure?.access ?? route.access;
  if (!access)
    throw new Error(`${route.method} ${route.path} has neither a procedure nor an access`);
  return access;
}

type ProcedureResult<P> = P extends { run: (...args: never[]) => infer R } ? Awaited<R> : never;

/** A table entry whose `respond` reads its procedure's result, checked against that result's type. */
export function responding<P extends AnyProcedure>(
  route: Omit<ApiRoute, "procedure" | "respond"> & {
    procedure: P;
    respond: Respond<ProcedureResult<P>>;
  },
): ApiRoute {
  return route as ApiRoute;
}

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
  if (!procedure)
    throw new Error(`${route.method} ${route.path} has neither a procedure nor a handler`);
  if (route.rawBody) return rawBodyHandler(procedure, route.rawBody);
  return apiHandler(procedure, {
    body: route.input === "json" ? "json" : "none",
    status: route.status,
    respond: route.respond as Respond<unknown> | undefined,
  });
}

/** `/api/token-images/{id}/stylize` as a matcher, the way Remix compiles `/api/token-images/:id/stylize`. */
function compilePath(path: string, route: ApiPathRoute): CompiledPath {
  const names: string[] = [];
  const segments = path.split("/").filter(Boolean);
  const source = segments
    .map((segment) => {
      const parameter = /^\{(\w+)\}$/.exec(segment);
      if (parameter) {
        names.push(parameter[1]);
        return "\\/([^\\/]+)";
      }
      return `\\/${segment.replace(/[\\.*+^${}|()[\]]/g, "\\$&")}`;
    })
    .join("");
  const score = segments.reduce((total, segment) => total + (segment.startsWith("{") ? 3 : 10), 0);
  return { path, matcher: new RegExp(`^${source}\\/*$`, "i"), names, score, route };
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
