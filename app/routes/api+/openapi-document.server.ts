import { z } from "zod";
import { MAX_UPLOAD_BYTES } from "~/lib/limits";
import { UPLOAD_FIELD } from "~/lib/limits";
import type { ApiCall, ApiRoute } from "~/web/api-router.server";
import { routeAccess } from "~/web/api-router.server";
import { resolveCaller, sessionCookie } from "~/web/auth.server";
import { errorResponse, jsonResponse } from "~/web/http.server";
import type { AnyProcedure } from "~/infra/procedure.server";

/**
 * The OpenAPI 3.1 document of the JSON API, built from the route table
 * (api-route-table.server.ts) and the procedures' zod input schemas, and served
 * at GET /api/openapi.json. Success bodies are described as any JSON unless a
 * route gives its `answerSchema` (to document fields; nothing checks them). Error bodies are the one shape errorResponse()
 * (http.server.ts) writes.
 */

/** The API's version in the document; raise it when a route or a body changes in a way clients notice. */
export const API_VERSION = "1.0.0";

type JsonSchema = Record<string, unknown>;
type Json = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, Json> };
}

export interface Operation {
  operationId: string;
  summary: string;
  security: Record<string, string[]>[];
  parameters?: Json[];
  requestBody?: { required: boolean; content: Record<string, Json> };
  responses: Record<string, Json>;
  "x-access": string;
}

const ERROR_REF = { $ref: "#/components/schemas/Error" };

/** What each error status means on this API. */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "The input is not valid; `fieldErrors` names the fields when it can.",
  401: "Not signed in (or a wrong email or password when signing in), or the bearer token sent is invalid or expired.",
  403: "Refused: a suspended account, an admins-only route, or a cookie-authenticated change from another site.",
  404: "Not found (another user's resource answers the same).",
  409: "Conflicts with what exists (an email already in use).",
  413: "The body is too large.",
  415: "Not a file of a type the endpoint takes (an image; a PNG drawn signature; a PDF release), or one that cannot be read within its limits.",
  422: "A vendor refused what was asked (Stripe, setting up payouts), or a file cannot be processed (damaged, or past a reader's limits); the message says which.",
  429: "Too many requests; `Retry-After` says when to try again.",
  500: "An unexpected error; the message says nothing about it.",
  502: "The payment or payout provider could not be reached, or refused the platform's request.",
  503: "The server is busy; `Retry-After` says when to try again.",
  507: "No storage left for what the request would store.",
};

const RETRY_AFTER = {
  "Retry-After": {
    description: "Seconds to wait before trying again.",
    schema: { type: "integer" },
  },
};

const cached = new WeakMap<
  readonly ApiRoute[],
  { cookieName: string; document: OpenApiDocument }
>();

/** The document of a route table (built once per session cookie name, which depends on the environment). */
export function openApiDocumentOf(routes: readonly ApiRoute[]): OpenApiDocument {
  const cookieName = sessionCookie().name;
  let built = cached.get(routes);
  if (built?.cookieName !== cookieName) {
    built = { cookieName, document: buildOpenApiDocument(routes, cookieName) };
    cached.set(routes, built);
  }
  return built.document;
}

/**
 * GET /api/openapi.json: the document of the table the router answers from
 * (public; it changes only with a deploy, so caches may keep it for 5 minutes).
 */
export async function serveOpenApiDocument({ request, routes }: ApiCall): Promise<Response> {
  try {
    // As on every public /api endpoint, a bearer token that is sent but not valid is a 401.
    await resolveCaller(request, { bearer: true });
    return jsonResponse(openApiDocumentOf(routes), {
      headers: { "Cache-Control": "public, max-age=300" },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

export function buildOpenApiDocument(
  routes: readonly ApiRoute[],
  cookieName: string,
): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const route of routes) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Selfie Studio API",
      version: API_VERSION,
      description:
        "The JSON API of Selfie Studio. Every error answers `{ message, fieldErrors? }`; " +
        "an unknown /api path is a JSON 404 and a method a route does not take a JSON 405 with `Allow`.",
    },
    servers: [{ url: "/" }],
    paths,
    components: {
      schemas: {
        Error: {
          type: "object",
          properties: {
            message: { type: "string" },
            fieldErrors: {
              type: "object",
              description: "Messages by field path (e.g. `customerInfo.email`).",
              additionalProperties: { type: "array", items: { type: "string" } },
            },
          },
          required: ["message"],
          additionalProperties: false,
        },
      },
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "An API token from POST /api/token-login.",
        },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: cookieName,
          description: "The web session cookie set by signing in on /auth.",
        },
      },
    },
  };
}

/** The path parameters of an OpenAPI path template, in order. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
}

/** A procedure's input as a caller sends it, as JSON Schema: an object's properties and which are required. */
export function procedureInputSchema(procedure: AnyProcedure): JsonSchema & {
  properties: Record<string, JsonSchema>;
  required: string[];
} {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(procedure.input, {
    io: "input",
    unrepresentable: "any",
  }) as JsonSchema;
  if (schema.type !== "object")
    throw new Error(`${procedure.name}: the input schema is not an object`);
  return {
    ...schema,
    properties: (schema.properties ?? {}) as Record<string, JsonSchema>,
    required: (schema.required ?? []) as string[],
  };
}

/** The input schema without the fields that come from the path. */
function withoutPathFields(schema: ReturnType<typeof procedureInputSchema>, fromPath: string[]) {
  const properties = Object.fromEntries(
    Object.entries(schema.properties).filter(([name]) => !fromPath.includes(name)),
  );
  const required = schema.required.filter((name) => !fromPath.includes(name));
  return { ...schema, properties, required };
}

function operation(route: ApiRoute): Operation {
  const access = routeAccess(route);
  const fromPath = pathParameters(route.path);
  const input = route.procedure ? procedureInputSchema(route.procedure) : undefined;
  const rest = input ? withoutPathFields(input, fromPath) : undefined;

  const parameters: Json[] = fromPath.map((name) => ({
    name,
    in: "path",
    required: true,
    schema: input?.properties[name] ?? { type: "string" },
  }));
  if (route.input === "query" && rest) {
    for (const [name, schema] of Object.entries(rest.properties)) {
      parameters.push({ name, in: "query", required: rest.required.includes(name), schema });
    }
  }
  for (const { name, description } of route.query ?? []) {
    parameters.push({
      name,
      in: "query",
      required: false,
      description,
      schema: { type: "string" },
    });
  }
  if (route.input === "signed-json") {
    parameters.push({
      name: route.signature?.header ?? "Stripe-Signature",
      in: "header",
      required: true,
      description: route.signature?.description ?? "Stripe's signature of the raw body.",
      schema: { type: "string" },
    });
  }

  return {
    operationId: operationId(route),
    summary: route.summary,
    security: security(route, access),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...requestBody(route, rest),
    responses: { ...successResponses(route), ...errorResponses(route, access, fromPath, rest) },
    "x-access": access,
  };
}

function operationId(route: ApiRoute): string {
  const name = route.operationId ?? route.procedure?.name;
  if (!name)
    throw new Error(`${route.method} ${route.path} has neither a procedure nor an operationId`);
  return name;
}

/**
 * Who may call: a bearer token OR the session cookie (two alternatives, either
 * one suffices; the cookie alone where the route reads only it). A public route
 * that reads credentials takes them optionally: `{}` (anonymous) is a third
 * alternative, and a bearer token that is sent but not valid is still a 401.
 * A route that reads none (a webhook, a redirect) lists none.
 */
function security(route: ApiRoute, access: string): Operation["security"] {
  if (route.auth === "none") return [];
  if (route.auth === "cookie") return [{ sessionCookie: [] }];
  const either: Operation["security"] = [{ bearerAuth: [] }, { sessionCookie: [] }];
  return access === "public" ? [{}, ...either] : either;
}

function requestBody(route: ApiRoute, rest: ReturnType<typeof withoutPathFields> | undefined) {
  switch (route.input) {
    case "json": {
      if (!rest)
        throw new Error(
          `${route.method} ${route.path} takes JSON but names no procedure to describe it`,
        );
      const content = { "application/json": { schema: rest } };
      return { requestBody: { required: rest.required.length > 0, content } };
    }
    case "multipart": {
      const field = route.uploadField ?? {
        name: UPLOAD_FIELD,
        contentType: "image/*",
        description: `A raster image (JPEG, PNG, ...), at most ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB.`,
      };
      const schema = {
        type: "object",
        properties: {
          [field.name]: {
            type: "string",
            contentMediaType: "application/octet-stream",
            description: field.description,
          },
        },
        required: [field.name],
      };
      const content = {
        "multipart/form-data": {
          schema,
          encoding: { [field.name]: { contentType: field.contentType } },
        },
      };
      return { requestBody: { required: true, content } };
    }
    case "signed-json": {
      const schema = {
        type: "object",
        description: route.signature?.body ?? "A Stripe event, exactly as Stripe signed it.",
      };
      return { requestBody: { required: true, content: { "application/json": { schema } } } };
    }
    default:
      return {};
  }
}

function successResponses(route: ApiRoute): Record<string, Json> {
  const redirect = {
    description: "A redirect.",
    headers: { Location: { description: "Where to go.", schema: { type: "string" } } },
  };
  switch (route.answer ?? "json") {
    case "redirect":
      return { [route.status]: redirect };
    case "page-or-redirect":
      return {
        [route.status]: { description: "A page (in the popup).", content: { "text/html": {} } },
        302: redirect,
      };
    case "zip":
      return { [route.status]: { description: "The file.", content: { "application/zip": {} } } };
    case "pdf":
      return { [route.status]: { description: "The file.", content: { "application/pdf": {} } } };
    case "csv":
      return { [route.status]: { description: "The file.", content: { "text/csv": {} } } };
    case "json":
      if (route.status === 204) return { 204: { description: "Done; no body." } };
      return {
        [route.status]: {
          description: "Done.",
          content: { "application/json": { schema: route.answerSchema ?? {} } },
        },
      };
  }
}

/**
 * The error statuses of a route: those that follow from how it is called
 * (apiHandler's auth and input checks, the body limit) and its own.
 */
function errorStatuses(
  route: ApiRoute,
  access: string,
  fromPath: string[],
  rest: ReturnType<typeof withoutPathFields> | undefined,
): number[] {
  const statuses = new Set(route.errors ?? []);
  const hasBody =
    route.input === "json" || route.input === "multipart" || route.input === "signed-json";
  if (route.auth === "bearer-or-cookie") {
    const queryFields = route.input === "query" && rest ? Object.keys(rest.properties).length : 0;
    if (fromPath.length > 0 || queryFields > 0 || hasBody) statuses.add(400);
    statuses.add(401);
    if (access !== "public" || route.method !== "GET") statuses.add(403);
  }
  if (hasBody) statuses.add(413);
  if (route.answer !== "redirect" && route.answer !== "page-or-redirect") statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

function errorResponses(
  route: ApiRoute,
  access: string,
  fromPath: string[],
  rest: ReturnType<typeof withoutPathFields> | undefined,
): Record<string, Json> {
  const responses: Record<string, Json> = {};
  for (const status of errorStatuses(route, access, fromPath, rest)) {
    const description = ERROR_DESCRIPTIONS[status];
    if (!description)
      throw new Error(`${route.method} ${route.path}: no description for status ${status}`);
    responses[status] = {
      description,
      ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
      content: { "application/json": { schema: ERROR_REF } },
    };
  }
  return responses;
}
