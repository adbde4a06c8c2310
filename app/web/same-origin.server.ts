import type { ApiRoute } from "~/infra/api-entry.server";
import { apiPathMatcher } from "./api-paths.server";

/**
 * Cookie-authenticated mutations must come from our own pages. Browsers send
 * Origin (and Sec-Fetch-Site) on every POST; a request without either is not
 * from a browser and cannot carry a victim's cookie by accident.
 * See docs/decisions/003-same-origin-check.md.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A method that reads and never changes anything (no same-origin check, no body expected). */
export const isSafeMethod = (method: string) => SAFE_METHODS.has(method.toUpperCase());

export interface MutationFacts {
  method: string;
  /** Reads a request header (case-insensitive), null when absent. */
  header: (name: string) => string | null;
  /** The host the request was addressed to (`name[:port]`). */
  host: string;
}

export function isCrossSite({ method, header, host }: MutationFacts): boolean {
  if (isSafeMethod(method)) return false;
  const fetchSite = header("Sec-Fetch-Site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = header("Origin");
  if (origin === null) return false;
  if (origin === "null") return true;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/**
 * Requests the same-origin rule does not apply to, as they carry no cookie
 * authority: a call with an `Authorization: Bearer` token, and the signed
 * webhooks (each checks its own signature and knows no caller): the route
 * table's entries with a `rawBody`, by method and path as the router matches
 * them.
 */
export type SameOriginExemption = (
  method: string,
  path: string,
  authorization: string | null,
) => boolean;

/** The exemption of the site whose /api endpoints are `apiRoutes` (the route table). */
export function sameOriginExemption(apiRoutes: readonly ApiRoute[]): SameOriginExemption {
  const signed = apiRoutes
    .filter((route) => route.rawBody)
    .map((route) => ({ method: route.method, matcher: apiPathMatcher(route.path) }));
  return (method, path, authorization) =>
    /^bearer\s/i.test(authorization ?? "") ||
    signed.some((route) => route.method === method.toUpperCase() && route.matcher.test(path));
}

export function isCrossSiteMutation(request: Request): boolean {
  return isCrossSite({
    method: request.method,
    header: (name) => request.headers.get(name),
    host: new URL(request.url).host,
  });
}
