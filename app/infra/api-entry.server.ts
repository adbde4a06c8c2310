import type { Readable } from "node:stream";
import type { AppLoadContext } from "@remix-run/node";
import type { UserRow } from "#db/schema";
import type { Access, AnyProcedure } from "~/infra/procedure.server";
import type { CallContext } from "~/infra/call-context.server";

/**
 * The /api route table's entry: everything the router (app/web/api-router.server.ts)
 * needs to answer an endpoint, the OpenAPI document needs to describe it and
 * the edge needs to guard it (an upload's body limit, a signed webhook's
 * exemption from the same-origin check). One entry is one method on one path.
 * Each feature declares its own in `app/features/<f>/api.server.ts`; the table
 * (app/routes/api+/api-route-table.server.ts) puts them together. This type is
 * part of the procedure kit so features, routes and the edge may all name it.
 */

export type ApiMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Where an endpoint's input comes from besides its path parameters:
 * - `query`: the procedure's other input fields, as query parameters;
 * - `json`: the procedure's other input fields, as a JSON object body;
 * - `multipart`: a multipart/form-data body with one file in the field `image` (or the route's
 *   `uploadField`); the edge streams it with the upload's body limit;
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

/**
 * What a successful answer carries: JSON (nothing for a 204), a zip file, a
 * PDF or a CSV file (the procedure's file, streamed as a private attachment),
 * a redirect, or a small page or a redirect (these two need a hand-written `handle`).
 */
export type ApiAnswer = "json" | "zip" | "pdf" | "csv" | "redirect" | "page-or-redirect";

/** Who is calling: the user (null for nobody) and how they were recognised. */
export interface Caller {
  user: UserRow | null;
  via: "bearer" | "cookie" | null;
  /** The bearer token, when the caller used one. */
  token?: string;
  /** The web session secret, when the caller was signed in by the session cookie. */
  sessionSecret?: string;
}

/** Turns a procedure's result into the answer, when it is not plain JSON of the result. */
export type Respond<R> = (
  result: R,
  caller: Caller,
  ctx: CallContext,
) => Response | Promise<Response>;

/** Turns a procedure's result into the JSON the answer carries (with the entry's status). */
export type Shape<R> = (result: R, caller: Caller, ctx: CallContext) => unknown;

/**
 * A signed webhook's body: read raw (at most `maxBytes`, as text or bytes) so
 * the signature check sees it untouched, with the named headers as input
 * fields beside it (the first of several names that is present).
 */
export interface RawBody {
  maxBytes: number;
  as: "text" | "bytes";
  headers: Record<string, string | readonly string[]>;
}

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
  /** For a JSON answer: the JSON Schema the document gives its body (any JSON when unset; nothing checks it). */
  answerSchema?: Record<string, unknown>;
  /** For `signed-json`: the header carrying the signature and what signed the body (Stripe's `Stripe-Signature` unless said). */
  signature?: { header: string; description: string; body: string };
  /**
   * For `signed-json`: how much of the raw body is read, as text or bytes, and
   * which headers go along as input fields. Such an endpoint checks its own
   * signature and knows no caller, so the edge exempts its method and path
   * from the same-origin check.
   */
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
  /** Turns the procedure's result into the JSON answered, when it is not the result itself (see `shaping`). */
  shape?: Shape<never>;
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

/** A table entry of procedure `P` with `answer` (a `respond` or a `shape` typed by P's result). */
type ProcedureEntry<P, Answer> = Omit<ApiRoute, "procedure" | "respond" | "shape"> & {
  procedure: P;
} & Answer;

/** A table entry whose `respond` reads its procedure's result, checked against that result's type. */
export function responding<P extends AnyProcedure>(
  route: ProcedureEntry<P, { respond: Respond<ProcedureResult<P>> }>,
): ApiRoute {
  return route as ApiRoute;
}

/** A table entry whose `shape` reads its procedure's result, checked against that result's type. */
export function shaping<P extends AnyProcedure>(
  route: ProcedureEntry<P, { shape: Shape<ProcedureResult<P>> }>,
): ApiRoute {
  return route as ApiRoute;
}

/** A file handed to its owner: the result of a procedure whose answer is a zip, a PDF or a CSV file. */
export interface DownloadFile {
  stream(): Readable;
  size: number;
  fileName: string;
}

/** A table entry answering a file (`answer` zip, PDF or CSV), its procedure's result checked to be one. */
export function downloading<P extends AnyProcedure>(
  route: Omit<ApiRoute, "procedure" | "respond" | "shape" | "answer"> & {
    procedure: ProcedureResult<P> extends DownloadFile ? P : never;
    answer: "zip" | "pdf" | "csv";
  },
): ApiRoute {
  return route as ApiRoute;
}
