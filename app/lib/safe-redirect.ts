/**
 * A redirect target that stays on this site: a path starting with a single
 * slash. Anything else (absolute URLs, protocol-relative `//evil`, backslash
 * tricks, control characters) falls back to the default. The check is made
 * again on what is returned: dot segments (`/.//evil`, `/%2e//evil`,
 * `/a/..//evil`) normalise to `//evil`, which a browser reads as another host.
 */
export function safeRedirect(target: unknown, fallback = "/dashboard"): string {
  if (typeof target !== "string" || target.length === 0 || target.length > 2000) return fallback;
  if (!isSameSitePath(target)) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\\]/.test(target)) return fallback;
  try {
    const url = new URL(target, "http://same.site");
    if (url.host !== "same.site") return fallback;
    const result = url.pathname + url.search + url.hash;
    return isSameSitePath(result) ? result : fallback;
  } catch {
    return fallback;
  }
}

/** A path that starts with exactly one slash (and no backslash after it). */
function isSameSitePath(path: string): boolean {
  return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\");
}
