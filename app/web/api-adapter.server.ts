import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import type { Access, Procedure } from "~/infra/procedure.server";
import { invoke } from "~/infra/procedure.server";
import type { Caller } from "~/web/auth.server";
import { resolveCaller } from "~/web/auth.server";
import { callContext } from "~/web/request-context.server";
import type { CallContext } from "~/infra/call-context.server";
import { badRequest, forbidden } from "~/infra/errors.server";
import { errorResponse, jsonResponse, readTextLimited } from "~/web/http.server";
import { isCrossSiteMutation } from "~/web/same-origin.server";

const MAX_JSON_BYTES = 1024 * 1024;

export interface ApiOptions<R> {
  /** Where the input comes from besides route params and the query string. */
  body?: "json" | "none";
  /** Status of a successful answer (200 unless said). 204 sends no body. */
  status?: number;
  /** Turns the result into the answer, when it is not plain JSON of the result. */
  respond?: (result: R, caller: Caller, ctx: CallContext) => Response | Promise<Response>;
}

/**
 * Turns a procedure into an /api resource-route handler: bearer or cookie
 * auth, same-origin check on cookie mutations, JSON parsing that never 500s,
 * and errors as JSON bodies (`message`, `fieldErrors` when there are any).
 */
export function apiHandler<A extends Access, S extends z.ZodType, R>(
  procedure: Procedure<A, S, R>,
  options: ApiOptions<Awaited<R>> = {},
) {
  return async ({ request, params, context }: LoaderFunctionArgs | ActionFunctionArgs) => {
    try {
      const caller = await resolveCaller(request, { bearer: true });
      if (caller.via !== "bearer" && isCrossSiteMutation(request)) {
        throw forbidden("Cross-site request refused");
      }
      const ctx = callContext(request, context, { webSessionSecret: caller.sessionSecret ?? null });
      const input = {
        ...Object.fromEntries(new URL(request.url).searchParams),
        ...(options.body === "json" ? await readJsonObject(request) : {}),
        ...params,
      };
      const result = await invoke(procedure, caller.user, input, ctx);
      if (options.respond) return await options.respond(result, caller, ctx);
      if (options.status === 204) return new Response(null, { status: 204 });
      return jsonResponse(result, { status: options.status ?? 200 });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await readTextLimited(request, MAX_JSON_BYTES);
  if (text.trim() === "") return {};
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw badRequest("Send the body as JSON with Content-Type: application/json");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest("Malformed JSON body");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest("The JSON body must be an object");
  }
  return value as Record<string, unknown>;
}

/** A JSON 404/405 for /api paths and methods that do not exist. */
export const apiNotFound = () => jsonResponse({ message: "Not found" }, { status: 404 });
export const apiMethodNotAllowed = (allowed: string) =>
  jsonResponse({ message: "Method not allowed" }, { status: 405, headers: { Allow: allowed } });

type Handler = (args: LoaderFunctionArgs | ActionFunctionArgs) => Promise<Response>;

/**
 * The loader and action of an /api route from its handlers by method, so every
 * other method answers a JSON 405 rather than Remix's HTML.
 */
export function apiRoutes(handlers: Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", Handler>>) {
  const allowed = Object.keys(handlers).join(", ");
  const dispatch = (args: LoaderFunctionArgs | ActionFunctionArgs) => {
    const method = args.request.method.toUpperCase() as keyof typeof handlers;
    const handler = handlers[method === ("HEAD" as string) ? "GET" : method];
    return handler ? handler(args) : Promise.resolve(apiMethodNotAllowed(allowed));
  };
  return { loader: dispatch, action: dispatch };
}
