import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type {
  ErrorRequestHandler,
  Express,
  Request as ExpressRequest,
  Response as ExpressResponse,
} from "express";
import type { AppLoadContext } from "@remix-run/node";
import { hasBody } from "./body-limits.server";
import { requestUrl } from "./remix-handler.server";
import type { CacheHit, PageVisit, VisitorPageCache } from "./visitor-page-cache.server";
import { nonceOf, type WithLocals } from "./security-headers.server";

/** A middleware that uses only Node's own request and response (the app runs it too). */
export type NodeMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

export interface CachedPageFrontOptions {
  /** The Express app that answers every request that is not a cache hit. */
  app: Express;
  cache: VisitorPageCache;
  /**
   * The app's own middlewares a hit needs, in the app's order: the request's
   * id, log context and metrics, the security headers and the CSP nonce. Each
   * uses only Node's request and response. The others have nothing to do for
   * a hit: the method guard passes a GET or HEAD, the body guard a request
   * without a body, /metrics and the static files answer paths the cache
   * never holds.
   */
  hitMiddlewares: readonly NodeMiddleware[];
  /**
   * The app's compression, run after them for a client that sends an
   * Accept-Encoding. One that sends none gets no encoding from it, only its
   * `Vary: Accept-Encoding` (every cached answer is HTML or JSON, which it
   * would compress): the front adds that header itself and leaves the
   * response unwrapped.
   */
  compression: NodeMiddleware;
  /** The app's load context for a request: its nonce, and the request as Express sees it, made when the context first needs it. */
  contextOf: (request: () => ExpressRequest, nonce: string | undefined) => AppLoadContext;
  /** The app's last error handler, for a hit whose answer failed (its replay reached a database that is down). */
  lastErrorHandler: ErrorRequestHandler;
  /** Whether Express serves this path from the public folder before the cache is asked. */
  servedFromFiles: (pathname: string) => boolean;
}

/**
 * The process's HTTP front: a visitor's cache hit is answered here, before
 * Express, by the same middlewares the app runs for it (so it has the headers,
 * nonce, request id, counters and compression a rendered page has), and
 * written from Node's response in one piece with a Content-Length. Any other
 * request, and a miss, goes to the app unchanged.
 *
 * Node's request and response keep their own prototypes: Express gives them
 * its own (`init`), and on this path that alone cost more than everything else
 * a hit does (about 50 of 85 µs of CPU, docs/performance.md). A replay that
 * asks for the visitor's address or the page's full URL (which Express's proxy
 * settings decide) reads them from a view of the request with Express's
 * prototype; the request becomes Express's only for the app's error handler.
 */
export function cachedPageFront(options: CachedPageFrontOptions): RequestListener {
  const { app, cache, compression, contextOf, lastErrorHandler, servedFromFiles } = options;
  const withCompression = [...options.hitMiddlewares, compression];
  return (req, res: ServerResponse & WithLocals) => {
    const hit = hitFor(req, cache, servedFromFiles);
    if (!hit) return app(req, res);
    let view: ExpressRequest | undefined;
    const expressView = () => (view ??= expressViewOf(app, req));
    const fail = (error: unknown) => {
      const request = asExpressRequest(app, req);
      lastErrorHandler(error, request, asExpressResponse(app, res, request), () => {});
    };
    const encodable = req.headers["accept-encoding"] !== undefined;
    const middlewares = encodable ? withCompression : options.hitMiddlewares;
    runInOrder(middlewares, req, res, (error) => {
      if (error) return fail(error);
      hit.answer(visitOf(req, expressView), contextOf(expressView, nonceOf(res))).then((answer) => {
        if (res.headersSent) return;
        res.statusCode = answer.status;
        for (const [name, value] of answer.headers) res.appendHeader(name, value);
        if (!encodable) varyOnAcceptEncoding(res);
        if (answer.body) writePieces(res, answer.body);
        else res.end();
      }, fail);
    });
  };
}

/** `Vary: Accept-Encoding` merged into the response's Vary, as compression adds it to an answer it could have encoded. */
function varyOnAcceptEncoding(res: ServerResponse) {
  const vary = res.getHeader("Vary");
  if (vary === undefined) return void res.setHeader("Vary", "Accept-Encoding");
  const named = String(vary)
    .split(",")
    .map((field) => field.trim().toLowerCase());
  if (!named.includes("accept-encoding") && !named.includes("*"))
    res.setHeader("Vary", `${String(vary)}, Accept-Encoding`);
}

/**
 * The body from its pieces, with its Content-Length: written into the corked
 * response one after another, so they leave in one write of the socket without
 * being copied into one buffer first.
 */
function writePieces(res: ServerResponse, pieces: readonly Buffer[]) {
  let length = 0;
  for (const piece of pieces) length += piece.byteLength;
  res.setHeader("Content-Length", length);
  const last = pieces.length - 1;
  res.cork();
  for (let index = 0; index < last; index++) res.write(pieces[index]);
  res.end(pieces[last]); // uncorks the connection
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
 * What a replay reads of the request as Express sees it (the visitor's address
 * and the page's URL, as TRUST_PROXY allows), without making Node's request
 * Express's: an object of Express's request prototype (so `ip`, `protocol`,
 * `hostname` and `get` are Express's own, with the app's proxy settings) over
 * the request's headers, socket and target. Node's request keeps its
 * prototype, and with it the fast path of Node's HTTP code (decision 104).
 */
function expressViewOf(app: Express, req: IncomingMessage): ExpressRequest {
  return Object.create(app.request, {
    headers: { value: req.headers },
    socket: { value: req.socket },
    connection: { value: req.socket },
    method: { value: req.method },
    url: { value: req.url },
    originalUrl: { value: req.url },
  }) as ExpressRequest;
}

/** The request as Express's own first step (`init`) makes it: the app's request prototype and the original URL. */
function asExpressRequest(app: Express, req: IncomingMessage): ExpressRequest {
  const request = Object.setPrototypeOf(req, app.request) as ExpressRequest;
  request.originalUrl = request.originalUrl || request.url;
  request.baseUrl = "";
  return request;
}

/** The response as Express's `init` makes it, tied to its request, for the app's error handler. */
function asExpressResponse(app: Express, res: ServerResponse, request: ExpressRequest) {
  const response = Object.setPrototypeOf(res, app.response) as ExpressResponse;
  request.res = response;
  response.req = request;
  response.locals = response.locals || Object.create(null);
  return response;
}

/** Runs the middlewares one after another as Express would, then `done` (with the error one passed or threw). */
function runInOrder(
  middlewares: readonly NodeMiddleware[],
  req: IncomingMessage,
  res: ServerResponse,
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
 * The visit as the app's bridge sees it: its headers, and the address the
 * client asked for (its protocol and host as TRUST_PROXY allows), made when a
 * replay first reads it.
 */
function visitOf(req: IncomingMessage, expressRequest: () => ExpressRequest): PageVisit {
  let url: URL | undefined;
  return {
    get url() {
      return (url ??= requestUrl(expressRequest()));
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
