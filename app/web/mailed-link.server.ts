/**
 * A page a mailed link opens carries a live token in its URL: it is never
 * cached and never sent to another site as a referrer.
 */
export const TOKEN_PAGE_HEADERS = {
  "Cache-Control": "no-store",
  "Referrer-Policy": "same-origin",
} as const;

/** The token of a mailed link (`?token=…`, at most 200 characters; "" without one). */
export function mailedLinkToken(request: Request): string {
  return (new URL(request.url).searchParams.get("token") ?? "").slice(0, 200);
}
