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
 * webhooks under /api/webhooks/ (each checks its own signature).
 */
export function isExemptFromSameOrigin(path: string, authorization: string | null): boolean {
  return /^bearer\s/i.test(authorization ?? "") || path.startsWith("/api/webhooks/");
}

export function isCrossSiteMutation(request: Request): boolean {
  return isCrossSite({
    method: request.method,
    header: (name) => request.headers.get(name),
    host: new URL(request.url).host,
  });
}
