import { Validator } from "@seriousme/openapi-schema-validator";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import * as apiSplatRoute from "~/routes/api+/$";
import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import { apiRouter } from "~/web/api-router.server";
import { openApiDocument } from "~/routes/api+/openapi.server";
import { PLATFORM_IDS } from "~/features/publishing/platforms";
import { encodeCursor } from "~/features/market/catalog/marketplace-search.server";
import type { Operation } from "~/routes/api+/openapi.server";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import { callRoute, makeRequest } from "#tests/setup/requests";

/** `/api/token-images/{id}/stylize` with each path parameter filled: `/api/token-images/p-id/stylize`. */
const concrete = (template: string) => template.replace(/\{(\w+)\}/g, "p-$1");

/**
 * The router over the real table, each entry's handler swapped for one that
 * names the entry: what the router chose, and with which path parameters.
 */
const markedRouter = () =>
  apiRouter(
    API_ROUTES.map((entry) => ({
      ...entry,
      respond: undefined,
      rawBody: undefined,
      handle: ({ params }: { params: Record<string, string | undefined> }) =>
        Response.json({ chose: `${entry.method} ${entry.path}`, params }),
    })),
  );

function operations(document: ReturnType<typeof openApiDocument>) {
  return Object.entries(document.paths).flatMap(([template, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${template}`,
      operation,
    })),
  );
}

function operationOf(method: string, template: string): Operation {
  const operation = openApiDocument().paths[template]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${template} is not in the document`);
  return operation;
}

function jsonBodySchema(operation: Operation) {
  return z.fromJSONSchema(
    operation.requestBody!.content["application/json"].schema as z.core.JSONSchema.JSONSchema,
  );
}

const errorBody = () =>
  z.fromJSONSchema(openApiDocument().components.schemas.Error as z.core.JSONSchema.JSONSchema);

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    // The document as it is served: plain JSON.
    const served = JSON.parse(JSON.stringify(openApiDocument())) as Record<string, unknown>;
    const result = await validator.validate(served);
    if (!result.valid) console.log(JSON.stringify(result.errors, null, 2));
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("has an operation for every entry of the route table, and nothing else", () => {
    const documented = operations(openApiDocument()).map((operation) => operation.key);
    const entries = API_ROUTES.map((entry) => `${entry.method} ${entry.path}`);
    expect(entries.length).toBeGreaterThan(30);
    expect(documented.sort()).toEqual(entries.sort());
  });

  it("names each operation once", () => {
    const ids = operations(openApiDocument()).map(({ operation }) => operation.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it("documents the launch answer's viewsGenerated and estimatedEarnings as the spec's estimates", () => {
    const launch = openApiDocument().paths["/api/marketplace/launch"].post;
    const schema = (launch.responses[200] as { content: Record<string, { schema: never }> })
      .content["application/json"].schema as {
      properties: Record<string, { description?: string }>;
    };
    for (const field of ["viewsGenerated", "estimatedEarnings"])
      expect(schema.properties[field].description).toMatch(
        /^The product spec's estimate, not a measurement/,
      );
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(["platformsLaunched", "platforms", "price"]),
    );
  });

  it("describes a JSON body the route takes: POST /api/token-login", async () => {
    const { user } = await createTestUser();
    const operation = operationOf("POST", "/api/token-login");
    expect(operation.security).toEqual([{}, { bearerAuth: [] }, { sessionCookie: [] }]);
    const schema = jsonBodySchema(operation);
    const body = { email: user.email, password: TEST_PASSWORD };
    expect(schema.safeParse(body).success).toBe(true);
    expect(schema.safeParse({ email: user.email }).success).toBe(false);

    const response = await callRoute(
      apiSplatRoute.action,
      makeRequest("/api/token-login", { json: body }),
    );
    expect(response.status).toBe(200);
    expect(operation.responses).toHaveProperty("200");
    expect(await response.json()).toMatchObject({
      token: expect.any(String),
      user: { id: user.id },
    });
  });

  it("describes path parameters and a body apart: POST /api/token-images/{id}/stylize", async () => {
    const { user, token } = await createTestUser();
    const stylized = await createStylizedImage(user.id);
    const operation = operationOf("POST", "/api/token-images/{id}/stylize");
    expect(operation.parameters).toEqual([
      expect.objectContaining({ name: "id", in: "path", required: true }),
    ]);
    expect(operation.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    const schema = jsonBodySchema(operation);
    expect(schema.safeParse({ style: "cartoon" }).success).toBe(true);
    expect(schema.safeParse({ style: "no-such-style" }).success).toBe(false);

    const path = `/api/token-images/${stylized.image_id}/stylize`;
    const stylizeAs = (style: string) =>
      callRoute(apiSplatRoute.action, makeRequest(path, { json: { style }, token }), {
        id: stylized.image_id,
      });
    const accepted = await stylizeAs("cartoon");
    expect(accepted.status).toBe(202);
    expect(operation.responses).toHaveProperty("202");

    const refused = await stylizeAs("no-such-style");
    expect(refused.status).toBe(400);
    expect(operation.responses).toHaveProperty("400");
    const error = await refused.json();
    expect(error).toHaveProperty("fieldErrors.style");
    expect(errorBody().safeParse(error).success).toBe(true);
  });

  it("is served at GET /api/openapi.json, public and cacheable for 5 minutes", async () => {
    const response = await callRoute(apiSplatRoute.loader, makeRequest("/api/openapi.json"));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json\b/);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=300");
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect(operationOf("GET", "/api/openapi.json").security).toEqual([
      {},
      { bearerAuth: [] },
      { sessionCookie: [] },
    ]);
  });
});

/** Every schema of a request (parameters and JSON bodies) with the name it goes by, nested ones too. */
function namedRequestSchemas(
  operation: Operation,
): { name: string; schema: Record<string, unknown> }[] {
  const found: { name: string; schema: Record<string, unknown> }[] = [];
  const walk = (name: string, schema: Record<string, unknown>) => {
    found.push({ name, schema });
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const [child, childSchema] of Object.entries(properties)) walk(child, childSchema);
    if (schema.items) walk(`${name}[]`, schema.items as Record<string, unknown>);
  };
  for (const parameter of operation.parameters ?? [])
    walk(parameter.name as string, parameter.schema as Record<string, unknown>);
  const body = operation.requestBody?.content["application/json"]?.schema;
  if (body) walk("(body)", body as Record<string, unknown>);
  return found;
}

describe("the OpenAPI document says what the routes accept", () => {
  it("marks every email field `format: email`", () => {
    const emails = operations(openApiDocument()).flatMap(({ key, operation }) =>
      namedRequestSchemas(operation)
        .filter(({ name }) => /email$/i.test(name))
        .map(({ name, schema }) => ({ field: `${key} ${name}`, format: schema.format })),
    );
    // Sign-in, register, forgot password, the admin's new user, the checkout's buyer, the library link.
    expect(emails.length).toBeGreaterThanOrEqual(6);
    expect(emails.filter(({ format }) => format !== "email")).toEqual([]);
  });

  it("gives platform lists at least one item, each a known platform id", () => {
    for (const template of ["/api/marketplace/launch", "/api/marketplace/post"]) {
      const body = operationOf("POST", template).requestBody!.content["application/json"]
        .schema as {
        properties: Record<string, Record<string, unknown>>;
      };
      expect(body.properties.platforms, template).toMatchObject({
        type: "array",
        minItems: 1,
        items: { type: "string", enum: [...PLATFORM_IDS] },
      });
    }
    for (const [method, template] of [
      ["DELETE", "/api/token-marketplace-integrations/{platform}"],
      ["GET", "/api/oauth/{platform}/authorize"],
    ]) {
      const platform = operationOf(method, template).parameters!.find(
        (parameter) => parameter.name === "platform",
      );
      expect(platform?.schema, `${method} ${template}`).toMatchObject({ enum: [...PLATFORM_IDS] });
    }
    const connect = operationOf("POST", "/api/token-marketplace-integrations").requestBody!.content[
      "application/json"
    ].schema as { properties: { platform: { enum: string[] } } };
    expect(connect.properties.platform.enum).toContain("opensea");
    expect(connect.properties.platform.enum).not.toContain("zora"); // closed
    expect(connect.properties.platform.enum).not.toContain("marketplace"); // needs no connection
  });

  it("gives a sale price its bounds", () => {
    const post = operationOf("POST", "/api/marketplace/post").requestBody!.content[
      "application/json"
    ].schema as {
      properties: { price: Record<string, unknown> };
    };
    expect(post.properties.price).toMatchObject({ type: "number", minimum: 0.01, maximum: 10_000 });
  });

  it("gives the marketplace cursor its format: the nextCursor of the page before, base64url", async () => {
    const cursor = operationOf("GET", "/api/marketplace").parameters!.find(
      (parameter) => parameter.name === "cursor",
    )!.schema as { pattern: string; description: string };
    expect(cursor.description).toMatch(/nextCursor/);
    const pattern = new RegExp(cursor.pattern);
    expect(pattern.test(encodeCursor("2026-01-01T00:00:00.000Z", "listing-id"))).toBe(true);
    for (const bad of ["not a cursor", "a+b/c=", ""]) expect(pattern.test(bad), bad).toBe(false);
  });

  it("calls a query parameter required only when leaving it out is refused, and gives a defaulted one its default", () => {
    const problems: string[] = [];
    for (const entry of API_ROUTES) {
      if (entry.input !== "query" || !entry.procedure) continue;
      const { error } = entry.procedure.input.safeParse({});
      const refused = new Set(error?.issues.map((issue) => String(issue.path[0])) ?? []);
      for (const parameter of operationOf(entry.method, entry.path).parameters ?? []) {
        if (parameter.in !== "query") continue;
        if (parameter.required !== refused.has(String(parameter.name)))
          problems.push(`${entry.method} ${entry.path} ${parameter.name}`);
      }
    }
    expect(problems).toEqual([]);
    const days = operationOf("GET", "/api/token-analytics").parameters!.find(
      (parameter) => parameter.name === "days",
    );
    expect(days).toMatchObject({ required: false, schema: { default: "30" } });
  });

  it("takes a bearer token or the session cookie: two alternatives, anonymous a third on public routes", () => {
    const problems: string[] = [];
    for (const entry of API_ROUTES) {
      const { security } = operationOf(entry.method, entry.path);
      const access = entry.procedure?.access ?? entry.access;
      const expected =
        entry.auth === "none"
          ? []
          : entry.auth === "cookie"
            ? [{ sessionCookie: [] }]
            : access === "public"
              ? [{}, { bearerAuth: [] }, { sessionCookie: [] }]
              : [{ bearerAuth: [] }, { sessionCookie: [] }];
      if (JSON.stringify(security) !== JSON.stringify(expected))
        problems.push(`${entry.method} ${entry.path}: ${JSON.stringify(security)}`);
    }
    expect(problems).toEqual([]);
  });
});

describe("the /api router", () => {
  it("dispatches every entry of the table to its handler, with its path parameters", async () => {
    const router = markedRouter();
    const problems: string[] = [];
    for (const entry of API_ROUTES) {
      const response = await callRoute(
        router.action,
        makeRequest(concrete(entry.path), { method: entry.method }),
      );
      const body = (await response.json()) as { chose?: string; params?: Record<string, string> };
      const params = Object.fromEntries(
        [...entry.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, `p-${name}`]),
      );
      if (
        body.chose !== `${entry.method} ${entry.path}` ||
        JSON.stringify(body.params) !== JSON.stringify(params)
      )
        problems.push(`${entry.method} ${entry.path}: ${response.status} ${JSON.stringify(body)}`);
    }
    expect(problems).toEqual([]);
  });

  it("matches as Remix matches route paths: case-insensitive, a trailing slash ignored, parameters decoded, HEAD as GET", async () => {
    const router = markedRouter();
    const answer = async (path: string, method = "GET") =>
      callRoute(router.loader, makeRequest(path, { method })).then((response) => response.json());
    expect(await answer("/API/Token-User/")).toMatchObject({ chose: "GET /api/token-user" });
    expect(await answer("/api/token-images/a%20b")).toEqual({
      chose: "GET /api/token-images/{id}",
      params: { id: "a b" },
    });
    expect(await answer("/api/token-images/upload", "POST")).toMatchObject({
      chose: "POST /api/token-images/upload",
    });
    expect(await answer("/api/account", "HEAD")).toMatchObject({ chose: "GET /api/account" });
  });

  it("answers a JSON 404 for a path the table does not have, and a JSON 405 with Allow for a method the path does not take", async () => {
    for (const path of [
      "/api",
      "/api/no-such-endpoint",
      "/api/token-images/x/y/z",
      "/api/token-user/extra",
    ]) {
      const response = await callRoute(apiSplatRoute.loader, makeRequest(path));
      expect(response.status, path).toBe(404);
      expect(response.headers.get("Content-Type")).toMatch(/^application\/json\b/);
      expect(await response.json()).toEqual({ message: "Not found" });
    }
    const byPath = new Map<string, string[]>();
    for (const entry of API_ROUTES)
      byPath.set(entry.path, [...(byPath.get(entry.path) ?? []), entry.method]);
    for (const [path, methods] of byPath) {
      const response = await callRoute(
        apiSplatRoute.action,
        makeRequest(concrete(path), { method: "PROPFIND" }),
      );
      expect(response.status, path).toBe(405);
      expect(response.headers.get("Allow"), path).toBe(methods.join(", "));
      expect(await response.json()).toEqual({ message: "Method not allowed" });
    }
    // The upload path is its own, not an image id: it takes POST only.
    const upload = await callRoute(apiSplatRoute.loader, makeRequest("/api/token-images/upload"));
    expect(upload.status).toBe(405);
    expect(upload.headers.get("Allow")).toBe("POST");
  });
});
