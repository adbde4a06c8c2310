import path from "node:path";
import type { RequestListener, Server } from "node:http";
import express from "express";
import compression from "compression";
import type { ServerBuild } from "@remix-run/node";
import type { Config } from "~/infra/config.server";
import type { FeatureTies } from "~/infra/call-context.server";
import { bodyGuard } from "./body-guard.server";
import { clientAddress, expressTrustSetting } from "./client-address.server";
import { apiRequestsFirst, apiRouteTableOf } from "./api-requests.server";
import type { ApiRoute } from "~/infra/api-entry.server";
import { bodyLimits } from "./body-limits.server";
import { sameOriginExemption } from "./same-origin.server";
import { lastErrorHandler } from "./last-error-handler.server";
import { methodGuard } from "./method-guard.server";
import { metricsEndpoint } from "./metrics-endpoint.server";
import { requestObservation } from "./request-observation.server";
import { getDb } from "~/infra/db.server";
import type { HandleRequest } from "./remix-handler.server";
import { remixBridge, remixRequestHandler } from "./remix-handler.server";
import { nonceOf, securityHeaders } from "./security-headers.server";
import { answeringUnroutableApiPaths } from "./unroutable-api-paths.server";
import { workerProbesOnly } from "./worker-probes-only.server";
import type { ReplayNotes } from "./visitor-page-cache.server";
import { visitorPageCache } from "./visitor-page-cache.server";
import { cachedPageFront, type NodeMiddleware } from "./cached-page-front.server";

export interface HttpAppOptions {
  config: Config;
  /** The folder that holds `build/` (the client assets) and the other public files. */
  publicDir: string;
  /** The Remix server build; or `handle` instead (tests). */
  build?: ServerBuild;
  handle?: HandleRequest;
  /**
   * The /api route table, for the /api upload paths (entries whose input is
   * multipart) and the signed webhooks (entries with a raw body): read from
   * the build's /api route; given with `handle` (tests).
   */
  apiRoutes?: readonly ApiRoute[];
  /** What features hand each other (app/boot/studio-ties.server.ts), carried by every request's context. */
  ties: FeatureTies;
  /** Repeats, for each visitor served a cached page, what its render did (the listings' view counts). */
  replayPageNotes?: ReplayNotes;
}

/**
 * The public pages a visitor may be served from the short-lived page cache,
 * each with the query parameters it may carry (any other parameter, such as a
 * payment return's, renders the page). `/*` stands for one path segment.
 */
export const CACHED_VISITOR_PAGES: Readonly<Record<string, readonly string[]>> = {
  "/": [],
  "/landing": [],
  "/training": [],
  "/marketplace": ["style", "q", "cursor", "listing"],
  // A listing's own page and a creator's storefront (one path segment each).
  "/marketplace/*": [],
  "/creators/*": ["style", "q", "cursor"],
};

/**
 * The public JSON answers served to anonymous callers from the same cache: the
 * marketplace's pages of listings (browsing, not searching: a search `q`
 * always reaches the procedure and its per-address limit).
 */
export const CACHED_VISITOR_ANSWERS: Readonly<Record<string, readonly string[]>> = {
  "/api/marketplace": ["style", "cursor", "limit", "listing"],
};

/** A path whose last segment has an extension, as every file in the public folder does. */
const NAMES_A_FILE = /\.[\w-]+$/;

/**
 * The one HTTP front of the process: the request id and the request's
 * metrics, security headers, the methods served
 * (405 for any other), the client's address, the body guard, /metrics (with
 * METRICS_TOKEN), static files,
 * then Remix behind the visitors' page cache; last, an error handler that
 * logs a failure and never shows its stack. In front of it all, a visitor's
 * cache hit is answered by the same middlewares it needs, before the router. A worker process (ROLE=worker)
 * answers only /healthz and /readyz; any other path is 404.
 */
export function createHttpApp({
  config,
  publicDir,
  build,
  handle,
  apiRoutes,
  replayPageNotes,
  ties,
}: HttpAppOptions): RequestListener {
  const table = apiRoutes ?? apiRouteTableOf(requireBuild(build));
  const bodyLimitFor = bodyLimits(table);
  const observation = requestObservation();
  const security = securityHeaders(config);
  const compress = compression();
  const failed = lastErrorHandler();
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", expressTrustSetting(config.TRUST_PROXY));
  app.use(observation);
  app.use(security);
  app.use(methodGuard());
  if (config.ROLE === "worker") app.use(workerProbesOnly());
  app.use(bodyGuard(bodyLimitFor, sameOriginExemption(table)));
  app.use(metricsEndpoint({ token: config.METRICS_TOKEN, db: getDb }));
  app.use(compress);
  // Fingerprinted client assets can be cached forever; everything else briefly.
  app.use(
    "/build",
    express.static(path.join(publicDir, "build"), { immutable: true, maxAge: "1y" }),
  );
  // The other public files (the favicon) are looked up on disk only for a path that names a file:
  // a page or API request then costs no failed stat (and no error object made and dropped).
  const publicFiles = express.static(publicDir, { maxAge: "1h" });
  app.use((req, res, next) => (NAMES_A_FILE.test(req.path) ? publicFiles(req, res, next) : next()));
  const cache = visitorPageCache(
    // An /api path Remix cannot route (a line break in it) is the JSON 404 too, never the page.
    answeringUnroutableApiPaths(handle ?? remixWithApiFirst(requireBuild(build), config.NODE_ENV)),
    {
      ttlMs: config.PAGE_CACHE_MS,
      maxBytes: config.PAGE_CACHE_MB * 1024 * 1024,
      pages: CACHED_VISITOR_PAGES,
      answers: CACHED_VISITOR_ANSWERS,
      replay: replayPageNotes,
    },
  );
  // The load context: the response's nonce, the client's address (read when a throttle or a view
  // count asks, which most cache hits never do, then kept) and the features' ties.
  const contextOf = (request: () => express.Request, nonce: string | undefined) => {
    let clientIp: string | undefined;
    return {
      nonce,
      get clientIp() {
        return (clientIp ??= clientAddress(request(), config.TRUST_PROXY));
      },
      ties,
    };
  };
  const loadContext = (req: express.Request, res: express.Response) =>
    contextOf(() => req, nonceOf(res));
  // `use`, not `all("*")`: a path with a broken escape (`%ZZ`) must reach the app, not fail
  // Express's decoding of a route parameter.
  app.use(remixBridge(cache, loadContext, bodyLimitFor));
  app.use(failed);
  // A worker serves no page: its front is the app alone.
  if (config.ROLE === "worker") return app;
  // A visitor's cache hit is answered before the app's router (cached-page-front.server.ts).
  return cachedPageFront({
    app,
    cache,
    hitMiddlewares: [observation, security],
    // Compression is a connect middleware: it uses only Node's request and response.
    compression: compress as unknown as NodeMiddleware,
    contextOf,
    lastErrorHandler: failed,
    servedFromFiles,
  });
}

/** The client build's mount, as Express matches it (any case, the folder or a path under it). */
const UNDER_BUILD = /^\/build(?:\/|$)/i;

/** Whether the app looks the path up in the public folder before the cache: under the client build, or naming a file. */
function servedFromFiles(pathname: string): boolean {
  return UNDER_BUILD.test(pathname) || NAMES_A_FILE.test(pathname);
}

function remixWithApiFirst(build: ServerBuild, mode: string): HandleRequest {
  return apiRequestsFirst(build, remixRequestHandler(build, mode));
}

function requireBuild(build: ServerBuild | undefined): ServerBuild {
  if (!build)
    throw new Error(
      "createHttpApp needs the server build (or a handle function and the apiRoutes)",
    );
  return build;
}

/**
 * Connection timeouts, set on purpose:
 * - keepAliveTimeout 65 s: an idle kept-alive connection stays open longer than
 *   the 60 s idle timeout common to proxies and load balancers, so the proxy,
 *   not us, closes it, and never just as it sends the next request. Node
 *   announces it in `Keep-Alive: timeout=65`, which fetch/undici honour.
 * - headersTimeout 20 s: a client gets this long to send its request headers
 *   (a slow-headers client cannot hold connections open).
 * - requestTimeout 300 s: the whole request, body included: a 10 MB upload on a
 *   slow phone connection still fits.
 */
export const SERVER_TIMEOUTS = {
  keepAliveTimeout: 65_000,
  headersTimeout: 20_000,
  requestTimeout: 300_000,
};

export function applyServerTimeouts(server: Server) {
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeout;
  server.headersTimeout = SERVER_TIMEOUTS.headersTimeout;
  server.requestTimeout = SERVER_TIMEOUTS.requestTimeout;
}
