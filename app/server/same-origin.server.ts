/**
 * Cookie-authenticated mutations must come from our own pages. Browsers send
 * Origin (and Sec-Fetch-Site) on every POST; a request without either is not
 * from a browser and cannot carry a victim's cookie by accident.
 * See docs/decisions/003-same-origin-check.md.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isCrossSiteMutation(request: Request): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = request.headers.get("Origin");
  if (origin === null) return false;
  if (origin === "null") return true;
  try {
    return new URL(origin).host !== new URL(request.url).host;
  } catch {
    return true;
  }
}
