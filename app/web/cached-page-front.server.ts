import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type {
  ErrorRequestHandler,
  Express,
  Request as ExpressRequest,
  Response as ExpressResponse,
  RequestHandler,
} from "express";
import type { AppLoadContext } from "@remix-run/node";
import { hasBody } from "./body-limits.server";
import { requestUrl } from "./remix-handler.server";
import type { CacheHit, PageVisit, VisitorPageCache } from "./visitor-page-cache.server";

export interface CachedPageFrontOptions {
  /** The Express app that answers every request that is not a cache hit. */
  app: Express;
  cache: VisitorPageCache;
  /**
   * The app's own middlewares a hit needs, in the app's order: the request's
   * id, log context and metrics, the security headers and the CSP nonce,
   * compression. The others have nothing to do for a hit: the method guard
   * passes a GET or HEAD, the body guard a request without a body, /metrics and
   * the static files answer paths the cache never holds.
   */
  hitMiddlewares: readonly RequestHandler[];
  /** The app's load context for a request (its nonce, client address and ties). */
  loadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
  /** The app's last error handler, for a hit whose answer failed (its replay reached a database that is down). */
  lastErrorHandler: ErrorRequestHandler;
  /** Whether Express serves this path from the public folder before the cache is asked. */
  servedFromFiles: (pathname: string) => boolean;
}

/**
 * The process's HTTP front: a visitor's cache hit is answered here, before
 * Express's router, by the same middlewares the app runs for it (so it has the
 * headers, nonce, request id, counters and compression a rendered page has),
 * and written from Node's response in one piece with a Content-Length. Any
 * other request, and a miss, goes to the app unchanged. A CPU profile of cached
 * hits under load found no single cost: each of the app's ten middlewares and
 * its router took a little (docs/performance.md), so a hit skips those it does
 * not need.
 */
export function cachedPageFront(options: CachedPageFrontOptions): RequestListener {
  const { app, cache, hitMiddlewares, loadContext, lastErrorHandler, servedFromFiles } = options;
  return (req, res) => {
    const hit = hitFor(req, cache, servedFromFiles);
    if (!hit) return app(req, res);
    const request = asExpressRequest(app, req, res);
    const response = request.res!;
    const fail = (error: unknown) => lastErrorHandler(error, request, response, () => {});
    runInOrder(hitMiddlewares, request, response, (error) => {
      if (error) return fail(error);
      hit.answer(visitOf(request), loadContext(request, response)).then((answer) => {
        if (response.headersSent) return;
        response.statusCode = answer.status;
        for (const [name, value] of answer.headers) response.appendHeader(name, value);
        if (answer.body) {
          response.setHeader("Content-Length", answer.body.byteLength);
          response.end(answer.body);
        } else response.end();
      }, fail);
    });
  };
}

/** The cache's hit for a GET or HEAD without a body whose address the app would route as a page, or null. */
function hitFor(
  req: IncomingMessage,
  cache: VisitorPageCache,
  servedFromFiles: (pathname: string) => boolean,
): CacheHit | null {
  const { method, url: target } = req;
  if ((method !== "GET" && method !== "HEAD") || hasBody(req)) return null;
  // A path, as browsers send it: the host is not the cache's concern (only the path and query key
  // a copy), and an absolute or `*` target takes the app's way.
  if (!target || target[0] !== "/" || target[1] === "/") return null;
  let url: URL;
  try {
    url = new URL(`http://front${target}`);
  } catch {
    return null; // an address no URL can hold: the app answers it as before
  }
  if (servedFromFiles(url.pathname)) return null;
  return cache.findHit(method, { url, header: (name) => headerOf(req, name) });
}

/**
 * The request and response as Express's own first step makes them (its
 * `init`: the app's request and response prototypes, `res.locals`, the
 * original URL), so the app's middlewares run on them as they do in the app.
 */
function asExpressRequest(app: Express, req: IncomingMessage, res: ServerResponse) {
  const request = Object.setPrototypeOf(req, app.request) as ExpressRequest;
  const response = Object.setPrototypeOf(res, app.response) as ExpressResponse;
  request.res = response;
  response.req = request;
  response.locals = response.locals || Object.create(null);
  request.originalUrl = request.originalUrl || request.url;
  request.baseUrl = "";
  return request;
}

/** Runs the middlewares one after another as Express would, then `done` (with the error one passed or threw). */
function runInOrder(
  middlewares: readonly RequestHandler[],
  req: ExpressRequest,
  res: ExpressResponse,
  done: (error?: unknown) => void,
) {
  let index = 0;
  const next = (error?: unknown) => {
    if (error) return done(error);
    const middleware = middlewares[index++];
    if (!middleware) return done();
    try {
      middleware(req, res, next);
    } catch (failure) {
      done(failure);
    }
  };
  next();
}

/**
 * The visit as the app's bridge sees it: the address the client asked for (its
 * protocol and host as TRUST_PROXY allows), made when a replay first reads it,
 * and its headers.
 */
function visitOf(req: ExpressRequest): PageVisit {
  let url: URL | undefined;
  return {
    get url() {
      return (url ??= requestUrl(req));
    },
    header: (name) => headerOf(req, name),
  };
}

/** One request header as the fetch Headers would give it (several values joined by a comma), or null. */
function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}
