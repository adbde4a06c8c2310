import { json } from "@remix-run/node";

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

/**
 * The loader's answer of a page a confirmation mail's link opens: the link's
 * token, and whether the page is showing the outcome (`?confirmed=1`, where
 * its action redirects after confirming). Opening it changes nothing.
 */
export function confirmByLinkPageData(request: Request) {
  const confirmed = new URL(request.url).searchParams.get("confirmed") === "1";
  return json({ token: mailedLinkToken(request), confirmed }, { headers: TOKEN_PAGE_HEADERS });
}
