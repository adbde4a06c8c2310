import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ApiRoute } from "~/infra/api-entry.server";
import { defineProcedure } from "~/infra/procedure.server";
import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import { apiPathMatcher } from "./api-paths.server";
import {
  bodyLimits,
  FORM_BODY_LIMIT,
  SCREEN_UPLOAD_PATHS,
  UPLOAD_BODY_LIMIT,
} from "./body-limits.server";
import { CACHED_VISITOR_ANSWERS, CACHED_VISITOR_PAGES } from "./http-app.server";
import { API_FAMILIES } from "./request-observation.server";
import { sameOriginExemption } from "./same-origin.server";

/**
 * The edge (app/web) guards /api requests before the router sees them: the
 * body limit, the same-origin check, the visitors' cache, the metrics'
 * families. What it knows of /api comes from the route table or is checked
 * against it here, so an endpoint added, moved or renamed cannot be silently
 * capped at 1 MB, refused as cross-site, or listed where it no longer is.
 */

/** `/api/token-images/{id}/stylize` with each path parameter filled: `/api/token-images/p-id/stylize`. */
const concrete = (template: string) => template.replace(/\{(\w+)\}/g, "p-$1");
const MULTIPART = "multipart/form-data; boundary=----edge";

/** How a request path is written by a client the router still answers: as declared, upper-cased, with a trailing slash. */
const spellings = (path: string) => [path, path.toUpperCase(), `${path}/`];

/** What the edge does wrong for the table's entries: an upload not streamed, a webhook not exempt, a body streamed that should not be. */
function edgeProblems(table: readonly ApiRoute[]): string[] {
  const problems: string[] = [];
  const limitFor = bodyLimits(table);
  const isExempt = sameOriginExemption(table);
  for (const entry of table) {
    const name = `${entry.method} ${entry.path}`;
    for (const path of spellings(concrete(entry.path))) {
      const limit = limitFor(path, MULTIPART);
      const uploadOnPath = table.some(
        (other) => other.input === "multipart" && apiPathMatcher(other.path).test(path),
      );
      if (entry.input === "multipart" && !(limit.streamed && limit.bytes === UPLOAD_BODY_LIMIT))
        problems.push(
          `${name} takes multipart but ${path} gets ${limit.bytes} bytes, not streamed`,
        );
      if (!uploadOnPath && (limit.streamed || limit.bytes !== FORM_BODY_LIMIT))
        problems.push(`${name} takes no upload but ${path} is streamed`);
      if (limitFor(path, "application/json").streamed)
        problems.push(`${name}: a JSON body to ${path} is streamed`);
      const exempt = isExempt(entry.method, path, null);
      if (entry.rawBody && !exempt)
        problems.push(`${name} checks its own signature but ${path} is not exempt`);
      const signedOnPath = table.some(
        (other) =>
          other.rawBody && other.method === entry.method && apiPathMatcher(other.path).test(path),
      );
      if (!signedOnPath && exempt)
        problems.push(`${name} is exempt from the same-origin check at ${path}`);
    }
  }
  return problems;
}

interface EdgeLists {
  families: ReadonlySet<string>;
  cachedAnswers: Readonly<Record<string, readonly string[]>>;
  cachedPages: Readonly<Record<string, readonly string[]>>;
  screenUploads: ReadonlySet<string>;
}

const isApi = (path: string) => path === "/api" || path.startsWith("/api/");

/** The /api names the edge's hand-kept lists hold that the table does not have. */
function listProblems(table: readonly ApiRoute[], lists: EdgeLists): string[] {
  const problems: string[] = [];
  const resources = new Set(table.map((entry) => entry.path.split("/")[2]));
  for (const family of lists.families)
    if (!resources.has(family)) problems.push(`metrics family api/${family}: no /api/${family}…`);
  for (const [path, params] of Object.entries(lists.cachedAnswers)) {
    const entry = table.find((candidate) => candidate.method === "GET" && candidate.path === path);
    if (!entry?.procedure || entry.input !== "query") {
      problems.push(`cached answer ${path}: no GET entry with a query input`);
      continue;
    }
    const schema = z.toJSONSchema(entry.procedure.input, { io: "input" }) as {
      properties?: Record<string, unknown>;
    };
    for (const param of params)
      if (!(param in (schema.properties ?? {})))
        problems.push(`cached answer ${path}: ${param} is not a field of its input`);
  }
  for (const path of Object.keys(lists.cachedPages))
    if (isApi(path)) problems.push(`cached page ${path} is an /api path`);
  for (const path of lists.screenUploads)
    if (isApi(path))
      problems.push(`screen upload ${path} is an /api path (declare it in the table)`);
  return problems;
}

const EDGE_LISTS: EdgeLists = {
  families: API_FAMILIES,
  cachedAnswers: CACHED_VISITOR_ANSWERS,
  cachedPages: CACHED_VISITOR_PAGES,
  screenUploads: SCREEN_UPLOAD_PATHS,
};

const noop = defineProcedure({
  name: "edgeListsExample",
  access: "user",
  input: z.object({ id: z.string() }),
  run: () => null,
});

/** Entries no feature has: an upload with a parameter and a signed webhook elsewhere than today's. */
const EXTRA_ENTRIES: ApiRoute[] = [
  {
    method: "POST",
    path: "/api/edge-examples/{id}/upload",
    summary: "An upload the edge has never heard of.",
    procedure: noop,
    auth: "bearer-or-cookie",
    input: "multipart",
    status: 201,
  },
  {
    method: "POST",
    path: "/api/edge-examples/hook",
    summary: "A signed webhook outside /api/webhooks/.",
    procedure: noop,
    auth: "none",
    input: "signed-json",
    status: 200,
    rawBody: { maxBytes: 1024, as: "text", headers: {} },
  },
];

describe("the edge and the /api route table", () => {
  it("streams every multipart entry with the upload limit, exempts every signed webhook, and nothing else", () => {
    expect(API_ROUTES.some((entry) => entry.input === "multipart")).toBe(true);
    expect(API_ROUTES.some((entry) => entry.rawBody)).toBe(true);
    expect(edgeProblems(API_ROUTES)).toEqual([]);
  });

  it("does the same for an entry added to the table, with no list to update", () => {
    expect(edgeProblems([...API_ROUTES, ...EXTRA_ENTRIES])).toEqual([]);
    const limitFor = bodyLimits([...API_ROUTES, ...EXTRA_ENTRIES]);
    expect(limitFor("/api/edge-examples/abc/upload", MULTIPART)).toEqual({
      bytes: UPLOAD_BODY_LIMIT,
      streamed: true,
    });
    expect(bodyLimits(API_ROUTES)("/api/edge-examples/abc/upload", MULTIPART)).toEqual({
      bytes: FORM_BODY_LIMIT,
      streamed: false,
    });
  });

  it("keeps the screens' uploads streamed", () => {
    const limitFor = bodyLimits(API_ROUTES);
    for (const path of ["/dashboard", "/settings", "/studio/release", "/settings/"])
      expect(limitFor(path, MULTIPART)).toEqual({ bytes: UPLOAD_BODY_LIMIT, streamed: true });
    expect(limitFor("/dashboard", "application/x-www-form-urlencoded").streamed).toBe(false);
    expect(limitFor("/marketplace", MULTIPART).streamed).toBe(false);
  });

  it("names in its own lists only /api paths and resources the table has", () => {
    expect(listProblems(API_ROUTES, EDGE_LISTS)).toEqual([]);
  });

  it("finds a list naming what the table lacks (self-check)", () => {
    expect(
      listProblems(API_ROUTES, {
        families: new Set([...API_FAMILIES, "gone"]),
        cachedAnswers: { ...CACHED_VISITOR_ANSWERS, "/api/gone": [], "/api/marketplace": ["nope"] },
        cachedPages: { ...CACHED_VISITOR_PAGES, "/api/token-images": [] },
        screenUploads: new Set([...SCREEN_UPLOAD_PATHS, "/api/account/avatar"]),
      }),
    ).toEqual([
      "metrics family api/gone: no /api/gone…",
      "cached answer /api/marketplace: nope is not a field of its input",
      "cached answer /api/gone: no GET entry with a query input",
      "cached page /api/token-images is an /api path",
      "screen upload /api/account/avatar is an /api path (declare it in the table)",
    ]);
  });

  it("finds an upload left at 1 MB and a webhook left to the same-origin check (self-check)", () => {
    const edgeOf = (table: readonly ApiRoute[]) => ({
      limitFor: bodyLimits(table),
      isExempt: sameOriginExemption(table),
    });
    // The edge built from today's table, asked about a table with the extra entries.
    const stale = edgeOf(API_ROUTES);
    expect(stale.limitFor("/api/edge-examples/p-id/upload", MULTIPART).streamed).toBe(false);
    expect(stale.isExempt("POST", "/api/edge-examples/hook", null)).toBe(false);
    const fresh = edgeOf([...API_ROUTES, ...EXTRA_ENTRIES]);
    expect(fresh.limitFor("/api/edge-examples/p-id/upload", MULTIPART).streamed).toBe(true);
    expect(fresh.isExempt("POST", "/api/edge-examples/hook", null)).toBe(true);
  });
});
