import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import type { Access, Procedure } from "~/infra/procedure.server";
import { invoke } from "~/infra/procedure.server";
import type { Caller } from "~/web/auth.server";
import { resolveCaller } from "~/web/auth.server";
import { callContext } from "~/web/request-context.server";
import type { CallContext } from "~/infra/call-context.server";
import type { RawBody } from "~/infra/api-entry.server";
import { badRequest, forbidden } from "~/infra/errors.server";
import { errorResponse, jsonResponse, readBytesLimited, readTextLimited } from "~/web/http.server";
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

export type { RawBody } from "~/infra/api-entry.server";

/**
 * Turns a webhook's procedure into an /api handler: no caller (a sender's
 * signature is checked by the procedure), `payload` the raw body, the headers
 * the entry names as the other input fields; JSON of the result, errors as
 * JSON bodies.
 */
export function rawBodyHandler<A extends Access, S extends z.ZodType, R>(
  procedure: Procedure<A, S, R>,
  raw: RawBody,
) {
  return async ({ request, context }: LoaderFunctionArgs | ActionFunctionArgs) => {
    try {
      const payload =
        raw.as === "bytes"
          ? await readBytesLimited(request, raw.maxBytes)
          : await readTextLimited(request, raw.maxBytes);
      const input: Record<string, unknown> = { payload };
      for (const [field, names] of Object.entries(raw.headers)) {
        const found = (typeof names === "string" ? [names] : names)
          .map((name) => request.headers.get(name))
          .find((value) => value !== null);
        input[field] = found ?? undefined;
      }
      const result = await invoke(procedure, null, input, callContext(request, context));
      return jsonResponse(result);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
