import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { Validator } from "@seriousme/openapi-schema-validator";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import * as stylizeRoute from "~/routes/api+/token-images.$id.stylize";
import * as tokenLoginRoute from "~/routes/api+/token-login";
import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import type { ApiRoute } from "~/routes/api+/api-route-table.server";
import { openApiDocument } from "~/routes/api+/openapi.server";
import { PLATFORM_IDS } from "~/features/publishing/platforms";
import { encodeCursor } from "~/features/market/marketplace-search.server";
import type { Operation } from "~/routes/api+/openapi.server";
import { apiRouteFiles, loadRoute, ROUTES_DIR } from "#tests/reliability/api-routes";
import type { ApiRouteFile } from "#tests/reliability/api-routes";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import { callRoute, makeRequest, ORIGIN } from "#tests/setup/requests";

/** The catch-all that answers a JSON 404 for /api paths that do not exist: not an operation. */
const CATCH_ALL = "api.$";

/** `/api/token-images/:id/stylize` as OpenAPI writes it: `/api/token-images/{id}/stylize`. */
const openApiPath = (pattern: string) => pattern.replace(/:(\w+)/g, "{$1}");

/**
 * The methods a route file answers, as it says itself: asked with a method no
 * route takes, every /api route answers a JSON 405 with `Allow` (nothing runs).
 */
async function methodsOf(route: ApiRouteFile): Promise<string[] | null> {
  const module = await loadRoute(route);
  if (!module.action) return module.loader ? ["GET"] : [];
  const response = await callRoute(
    module.action,
    new Request(`${ORIGIN}${route.pattern}`, { method: "PROPFIND" }),
  );
  const allow = response.headers.get("Allow");
  return allow === null ? null : allow.split(/,\s*/).filter(Boolean);
}

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

/**
 * The procedure each method of a route file calls, read from its source:
 * `METHOD: apiHandler(name` for the adapter's routes, `invoke(name` for the
 * hand-written ones, with `name` imported from a feature's procedures file.
 */
async function proceduresCalledBy(
  route: ApiRouteFile,
): Promise<{ byMethod: Map<string, unknown>; invoked: unknown[] }> {
  const source = fs.readFileSync(route.file, "utf8");
  const modules = new Map<string, string>();
  for (const match of source.matchAll(
    /import\s*\{([^}]*)\}\s*from\s*"~\/features\/([\w-]+(?:\/[\w.-]+)+)"/g,
  )) {
    for (const name of match[1]
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean))
      modules.set(name, match[2]);
  }
  const resolve = async (name: string) => {
    const module = modules.get(name);
    if (!module) throw new Error(`${route.id}: ${name} is not imported from a feature`);
    const file = path.join(ROUTES_DIR, "..", "features", `${module}.ts`);
    const exports = (await import(/* @vite-ignore */ url.pathToFileURL(file).href)) as Record<
      string,
      unknown
    >;
    return exports[name];
  };
  const byMethod = new Map<string, unknown>();
  for (const match of source.matchAll(/\b(GET|POST|PUT|PATCH|DELETE):\s*apiHandler\(\s*(\w+)/g)) {
    byMethod.set(match[1], await resolve(match[2]));
  }
  const invoked = await Promise.all(
    [...source.matchAll(/\binvoke\(\s*(\w+)/g)].map((match) => resolve(match[1])),
  );
  return { byMethod, invoked };
}

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

  it("has every method of every /api route file, and nothing else", async () => {
    const fromFiles: string[] = [];
    for (const route of apiRouteFiles()) {
      const methods = await methodsOf(route);
      if (route.id === CATCH_ALL) {
        expect(methods, "the catch-all takes no method of its own").toBeNull();
        continue;
      }
      expect(
        methods,
        `${route.id} answers a JSON 405 with Allow for a method it does not take`,
      ).not.toBeNull();
      for (const method of methods!) fromFiles.push(`${method} ${openApiPath(route.pattern)}`);
    }
    expect(fromFiles.length).toBeGreaterThan(30);
    const documented = operations(openApiDocument()).map((operation) => operation.key);
    expect(
      documented.sort(),
      "route files without a table entry, or entries without a route",
    ).toEqual(fromFiles.sort());
  });

  it("lists each route under its route file, with the procedure that file calls", async () => {
    const files = new Map(apiRouteFiles().map((route) => [route.id, route]));
    const problems: string[] = [];
    for (const entry of API_ROUTES) {
      const file = files.get(entry.route);
      if (!file) {
        problems.push(`${entry.method} ${entry.path}: no route file ${entry.route}`);
        continue;
      }
      if (openApiPath(file.pattern) !== entry.path)
        problems.push(
          `${entry.route}: the path is ${openApiPath(file.pattern)}, not ${entry.path}`,
        );
      const called = await proceduresCalledBy(file);
      const procedure =
        called.byMethod.get(entry.method) ??
        (called.byMethod.size === 0 ? called.invoked[0] : undefined);
      if (procedure !== entry.procedure) {
        const name = (procedure as ApiRoute["procedure"])?.name ?? "no procedure";
        problems.push(
          `${entry.method} ${entry.path}: the route file calls ${name}, the table says ${entry.procedure?.name ?? "none"}`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it("names each operation once", () => {
    const ids = operations(openApiDocument()).map(({ operation }) => operation.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
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
      tokenLoginRoute.action,
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
    const accepted = await callRoute(
      stylizeRoute.action,
      makeRequest(path, { json: { style: "cartoon" }, token }),
      {
        id: stylized.image_id,
      },
    );
    expect(accepted.status).toBe(202);
    expect(operation.responses).toHaveProperty("202");

    const refused = await callRoute(
      stylizeRoute.action,
      makeRequest(path, { json: { style: "no-such-style" }, token }),
      {
        id: stylized.image_id,
      },
    );
    expect(refused.status).toBe(400);
    expect(operation.responses).toHaveProperty("400");
    const error = await refused.json();
    expect(error).toHaveProperty("fieldErrors.style");
    expect(errorBody().safeParse(error).success).toBe(true);
  });

  it("is served at GET /api/openapi.json, public and cacheable for 5 minutes", async () => {
    const route = apiRouteFiles().find((file) => file.pattern === "/api/openapi.json");
    expect(route).toBeDefined();
    const module = await loadRoute(route!);
    const response = await callRoute(module.loader!, makeRequest("/api/openapi.json"));
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
function namedRequestSchemas(operation: Operation): { name: string; schema: Record<string, unknown> }[] {
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
      const body = operationOf("POST", template).requestBody!.content["application/json"].schema as {
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
      const platform = operationOf(method, template).parameters!.find((parameter) => parameter.name === "platform");
      expect(platform?.schema, `${method} ${template}`).toMatchObject({ enum: [...PLATFORM_IDS] });
    }
    const connect = operationOf("POST", "/api/token-marketplace-integrations").requestBody!.content["application/json"]
      .schema as { properties: { platform: { enum: string[] } } };
    expect(connect.properties.platform.enum).toContain("opensea");
    expect(connect.properties.platform.enum).not.toContain("zora"); // closed
    expect(connect.properties.platform.enum).not.toContain("marketplace"); // needs no connection
  });

  it("gives a sale price its bounds", () => {
    const post = operationOf("POST", "/api/marketplace/post").requestBody!.content["application/json"].schema as {
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
