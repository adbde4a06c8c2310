import { carriesSessionCookie } from "./request-cookies.server";

/**
 * The Cache-Control of a page (an HTML document or its Remix data request)
 * whose route did not choose one. Every page carries the navigation bar of
 * whoever asked, so no page is fit for a shared cache: a visitor's pages are
 * `private, no-cache` (the browser may keep them but asks again), and a
 * signed-in person's pages are `private, no-store`, so their dashboard is
 * never left on disk for the next person at a shared computer.
 */
export const SIGNED_IN_CACHE_CONTROL = "private, no-store";
export const VISITOR_CACHE_CONTROL = "private, no-cache";

/** A request carrying a session cookie (read by the session's own parser, by either name) counts as signed in. */
export function applyDocumentCacheControl(request: Request, headers: Headers): void {
  if (headers.has("Cache-Control")) return;
  const signedIn = carriesSessionCookie(request);
  headers.set("Cache-Control", signedIn ? SIGNED_IN_CACHE_CONTROL : VISITOR_CACHE_CONTROL);
}
