/**
 * A redirect target that stays on this site: a path starting with a single
 * slash. Anything else (absolute URLs, protocol-relative `//evil`, backslash
 * tricks, control characters) falls back to the default.
 */
export function safeRedirect(target: unknown, fallback = "/dashboard"): string {
  if (typeof target !== "string" || target.length === 0 || target.length > 2000) return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\\]/.test(target)) return fallback;
  try {
    const url = new URL(target, "http://same.site");
    if (url.host !== "same.site") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
