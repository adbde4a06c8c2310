import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from "express";
import type { AppLoadContext } from "@remix-run/node";
import { hasBody } from "./body-limits.server";
import { requestUrl } from "./remix-handler.server";
import type { VisitorPageCache } from "./visitor-page-cache.server";

/**
 * Serves a visitor's cache hit from Node's request and response, before the
 * fetch Request, the Response and the web stream Remix's bridge would make of
 * them: the copy's bytes, with this response's nonce, in one write. It stands
 * after the security headers (the CSP and its nonce), the method and body
 * guards' concerns (a GET or HEAD without a body only) and compression, so a
 * hit has the headers, nonce, counters and security a rendered page has; any
 * other request, and a miss, goes on to the bridge and the cache behind it.
 */
export function cachedPageFront(
  cache: VisitorPageCache,
  loadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext,
) {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || hasBody(req)) return next();
    let url: URL;
    try {
      url = requestUrl(req);
    } catch {
      return next(); // an address no URL can hold: the bridge answers it as before
    }
    const visit = { url, header: (name: string) => headerOf(req, name) };
    const hit = cache.answerHit(req.method, visit, () => loadContext(req, res));
    if (!hit) return next();
    hit.then(
      (answer) => {
        if (res.headersSent) return;
        res.status(answer.status);
        for (const [name, value] of answer.headers) res.append(name, value);
        if (answer.body) {
          res.setHeader("Content-Length", answer.body.byteLength);
          res.end(answer.body);
        } else res.end();
      },
      (error: unknown) => next(error),
    );
  };
}

/** One request header as the fetch Headers would give it (several values joined by a comma), or null. */
function headerOf(req: ExpressRequest, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}
