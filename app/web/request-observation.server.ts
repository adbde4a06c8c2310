import type { IncomingMessage, ServerResponse } from "node:http";
import { countRequest } from "~/infra/metrics.server";
import { callerRequestIdFrom, newRequestId, withLogContext } from "~/infra/log-context.server";

export const REQUEST_ID_HEADER = "X-Request-Id";

/** The first path segments that are route families of their own; anything else counts as `other`. */
const PAGE_FAMILIES = new Set([
  "admin",
  "analytics",
  "build",
  "cart",
  "confirm-registration",
  "contact",
  "creator-guide",
  "creators",
  "dashboard",
  "downloads",
  "forgot-password",
  "healthz",
  "help",
  "integrations",
  "landing",
  "library",
  "license",
  "licenses",
  "listings",
  "login",
  "logout",
  "marketplace",
  "media",
  "metrics",
  "payment-monitor",
  "payouts",
  "pricing",
  "privacy",
  "provenance",
  "register",
  "refund-requests",
  "reset-password",
  "robots.txt",
  "saved",
  "settings",
  "sitemap.xml",
  "sitemaps",
  "studio",
  "terms",
  "test-checkout",
  "training",
]);

/**
 * The /api resources that are route families of their own (`api/<name>`, the
 * first segment after /api of the route table's paths); any other is
 * `api/other`. Each names a resource the table has (edge-lists.server.test.ts).
 */
export const API_FAMILIES: ReadonlySet<string> = new Set([
  "account",
  "admin",
  "create-checkout-session",
  "forgot-password",
  "images",
  "library-link",
  "login",
  "marketplace",
  "marketplace-integrations",
  "marketplace-listings",
  "oauth",
  "openapi.json",
  "payment-status",
  "payouts",
  "provenance",
  "publications",
  "refund-requests",
  "register",
  "reset-password",
  "token-analytics",
  "token-earnings",
  "token-images",
  "token-login",
  "token-logout",
  "token-marketplace-integrations",
  "token-marketplace-listings",
  "token-payouts",
  "token-stats",
  "token-stylized-images",
  "token-user",
  "webhooks",
]);

/**
 * The route family a path counts under in the metrics: a fixed, small set
 * (`home`, the first path segment when it is a known one, `api/<resource>`,
 * else `other`), so a scraper never sees a raw path, an id or a token.
 */
export function routeFamily(pathname: string): string {
  const segments = pathname.split("/").filter(Boolean);
  if (segments.length === 0) return "home";
  const [first, second] = segments;
  if (first === "api") return second && API_FAMILIES.has(second) ? `api/${second}` : "api/other";
  return PAGE_FAMILIES.has(first) ? first : "other";
}

/** The path of a request's target, without its query (what Express calls `req.path`). */
function pathOf(target: string | undefined): string {
  if (!target) return "/";
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
}

/** A header's value as Express's `req.get` gives it: the first when several were sent. */
function oneHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The first middleware: gives the request an id of our own (a UUID, whatever
 * the caller sent), answers it in the response's `X-Request-Id`, serves the
 * rest of the request inside that log context (every line logged meanwhile
 * carries it, and jobs enqueued keep it), and counts the request and its time
 * in the metrics once the response ended. A caller's well-formed
 * `X-Request-Id` (a proxy's) is logged beside ours as `callerRequestId`, to
 * find the request by the proxy's id; it is never stored with a job, so no
 * caller can give its jobs another request's id (docs/decisions/071).
 */
export function requestObservation() {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const startedAt = process.hrtime.bigint();
    // Read now: a mounted middleware (the client build's files) shortens `req.url` while it serves.
    const path = pathOf(req.url);
    const requestId = newRequestId();
    const callerRequestId = callerRequestIdFrom(oneHeader(req.headers["x-request-id"]));
    res.setHeader(REQUEST_ID_HEADER, requestId);
    res.once("finish", () => {
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      const method = req.method && METHODS.has(req.method) ? req.method : "OTHER";
      countRequest(routeFamily(path), method, res.statusCode, seconds);
    });
    withLogContext({ requestId, callerRequestId }, () => next());
  };
}
