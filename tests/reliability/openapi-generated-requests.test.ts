import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { JobWorker } from "~/infra/jobs/job-worker.server";
import { buildOpenApiDocument, openApiDocument } from "~/routes/api+/openapi.server";
import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import { sessionCookie } from "~/web/auth.server";
import { creatorStats } from "~/features/studio/workspace/procedures.server";
import { jsonResponse } from "~/web/http.server";
import { fixture } from "#tests/setup/studio";
import { apiPaths, callApiRoute, loadRoute } from "./api-routes";
import type { DocumentOperation, Report, RunOptions } from "./generated-requests";
import { documentOperations, runGeneratedRequests } from "./generated-requests";
import {
  buildWorld,
  configure,
  freshCredentials,
  publishJobsIdle,
  startPublishWorker,
} from "./world";
import type { World } from "./world";

/**
 * Every operation of the OpenAPI document (as served, so a route added to the
 * route table is covered without a line here) gets requests generated from its
 * schemas, valid and deliberately invalid, with and without credentials, sent
 * through the route's own handler against a real database. No answer may be a
 * 5xx, and every answer must be one the operation documents.
 */

/**
 * The seed and the number of requests per operation (about a third of them
 * valid). GENERATED_REQUESTS_SEED and GENERATED_REQUESTS_PER_OPERATION change
 * them for a longer look by hand; a failure names the seed, so the same
 * requests can be made again.
 */
const SEED = Number(process.env.GENERATED_REQUESTS_SEED ?? 20261127);
const REQUESTS_PER_OPERATION = Number(process.env.GENERATED_REQUESTS_PER_OPERATION ?? 48);

let w: World;
let worker: JobWorker;
let restoreConfig: () => void;
let files: { bytes: Uint8Array; type: string }[];

/** Every vendor's HTTP edge is down: what a route does then is part of what it answers. */
const vendors = setupServer(http.all("*", () => HttpResponse.error()));

beforeAll(async () => {
  vendors.listen({ onUnhandledRequest: "error" });
  restoreConfig = configure({
    STRIPE_WEBHOOK_SECRET: "whsec_generated_requests_secret",
    SHOPIFY_CLIENT_ID: "generated-requests-client",
    SHOPIFY_CLIENT_SECRET: "generated-requests-secret",
    // Nothing listens there: an SFTP check is refused at once.
    ADOBE_STOCK_SFTP_HOST: "127.0.0.1",
    ADOBE_STOCK_SFTP_PORT: 9,
  });
  worker = startPublishWorker();
  w = await buildWorld();
  await publishJobsIdle();
  const smallPng = await sharp({
    create: { width: 320, height: 400, channels: 3, background: "#a0b0c0" },
  })
    .png()
    .toBuffer();
  files = [
    { bytes: fixture("portrait-hopper.jpg"), type: "image/jpeg" },
    { bytes: smallPng, type: "image/png" },
    { bytes: fixture("truncated.jpg"), type: "image/jpeg" },
  ];
});
afterAll(async () => {
  await publishJobsIdle();
  await worker.stop();
  restoreConfig();
  vendors.close();
});

/** The route file that answers an operation: its URL pattern is the operation's path. */
const routeFiles = () =>
  new Map(apiPaths().map((file) => [file.pattern.replace(/:(\w+)/g, "{$1}"), file]));

async function handleByRoute(
  op: DocumentOperation,
  request: Request,
  params: Record<string, string>,
): Promise<Response> {
  const file = routeFiles().get(op.template);
  if (!file) throw new Error(`No route file answers ${op.template}`);
  return callApiRoute(await loadRoute(file), request, params);
}

function runOptions(overrides: Partial<RunOptions> = {}): RunOptions {
  return {
    document: openApiDocument(),
    seed: SEED,
    requestsPerOperation: REQUESTS_PER_OPERATION,
    handle: handleByRoute,
    credentials: async (who, access) => {
      // The caller an operation is for: the admin on admin routes, creator A elsewhere; someone else: A on admin routes, B elsewhere.
      const caller = access === "admin" ? w.admin : w.alice;
      const other = access === "admin" ? w.alice : w.bob;
      return freshCredentials((who === "caller" ? caller : other).user.id);
    },
    examples: {
      id: [w.listed.imageId, w.listed.stylized.id, w.mintKit.publicationId],
      imageId: [w.listed.stylized.id, w.listed.listing.id, w.listed.imageId],
      userId: [w.bob.user.id, w.banned.user.id],
      orderId: [w.sale.orderId],
      sessionId: [w.sale.sessionId],
      platform: ["opensea", "zora", "shopify", "adobestock", "marketplace"],
      listing: [w.listed.listing.id],
      email: [w.alice.email, "bea@example.com"],
    },
    files,
    ...overrides,
  };
}

function summary(report: Report): string {
  const statuses = Object.entries(report.statuses)
    .map(([status, count]) => `${status}: ${count}`)
    .join(", ");
  return `seed ${SEED}: ${report.operations} operations, ${report.requests} requests, ${report.serverErrors} server errors, ${report.undocumented} undocumented answers (statuses ${statuses})`;
}

describe("requests generated from the OpenAPI document", () => {
  it(
    "answer every operation without a 5xx, and only as the document says",
    { timeout: 180_000 },
    async () => {
      const report = await runGeneratedRequests(runOptions());
      console.info(summary(report));
      if (process.env.GENERATED_REQUESTS_SAMPLES) {
        console.info(JSON.stringify(report.statusesByOperation, null, 1));
        for (const { request, answer } of report.validRefused)
          console.info(`valid but refused: ${request}\n    -> ${answer}`);
      }
      expect(report.operations).toBe(documentOperations(openApiDocument()).length);
      expect(report.requests).toBe(report.operations * REQUESTS_PER_OPERATION);
      expect(
        report.problems.map(({ request, problem }) => `${request}\n    -> ${problem}`),
      ).toEqual([]);
      expect(report.serverErrors).toBe(0);
      expect(report.undocumented).toBe(0);
    },
  );
});

describe("the generated-request check fails", () => {
  const STATS = "GET /api/token-stats";
  const onlyStats = (op: DocumentOperation) => op.key === STATS;

  it("when a route throws", async () => {
    const report = await runGeneratedRequests(
      runOptions({
        only: onlyStats,
        requestsPerOperation: 6,
        handle: () => Promise.reject(new Error("thrown on purpose")),
      }),
    );
    expect(report.serverErrors).toBe(6);
    expect(report.problems[0]).toMatchObject({
      operation: STATS,
      problem: expect.stringMatching(/threw.*thrown on purpose/),
    });
  });

  it("when a procedure fails and the route answers its documented 500", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(creatorStats, "run").mockRejectedValue(new Error("failed on purpose"));
    const report = await runGeneratedRequests(
      runOptions({ only: onlyStats, requestsPerOperation: 12 }),
    );
    expect(report.serverErrors).toBeGreaterThan(0);
    expect(report.problems.some(({ problem }) => /^server error 500/.test(problem))).toBe(true);
  });

  it("when the document leaves out a status a real route answers", async () => {
    const IMAGE = "GET /api/token-images/{id}";
    const without404 = API_ROUTES.map((route) =>
      `${route.method} ${route.path}` === IMAGE
        ? { ...route, errors: (route.errors ?? []).filter((status) => status !== 404) }
        : route,
    );
    const report = await runGeneratedRequests(
      runOptions({
        document: buildOpenApiDocument(without404, sessionCookie().name),
        only: (op) => op.key === IMAGE,
        requestsPerOperation: 12,
      }),
    );
    expect(report.statuses[404]).toBeGreaterThan(0);
    expect(report.undocumented).toBe(report.statuses[404]);
    expect(report.problems[0].problem).toMatch(/^status 404 is not documented/);
  });

  it("when a route answers a status, a media type or a body the document does not give", async () => {
    const answers = [
      () => jsonResponse({ message: "I'm a teapot" }, { status: 418 }),
      () =>
        new Response("<p>Not JSON</p>", { status: 401, headers: { "Content-Type": "text/html" } }),
      () => jsonResponse({ error: "not the Error shape" }, { status: 401 }),
    ];
    for (const answer of answers) {
      const report = await runGeneratedRequests(
        runOptions({
          only: onlyStats,
          requestsPerOperation: 3,
          handle: () => Promise.resolve(answer()),
        }),
      );
      expect(report.undocumented).toBe(3);
      expect(report.serverErrors).toBe(0);
    }
  });
});
