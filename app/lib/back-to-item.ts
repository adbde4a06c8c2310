import { safeRedirect } from "~/lib/safe-redirect";

/** The query parameter a no-JavaScript add to the cart comes back with: `?added=<listingId>`. */
export const ADDED_PARAM = "added";

/** A listing's anchor on a page: its card's title, or its own page's buy box. */
const ANCHOR = /^listing-[A-Za-z0-9_-]{1,64}$/;

/**
 * Where a form posted without JavaScript (the cart's, a Save button's) sends
 * the buyer back: the page it came from (`redirectTo`, on this site, else
 * `fallback`) scrolled to its item (`#listing-<id>`, when the form names that
 * anchor), not to the top. `added` names the listing just put in the cart, so
 * the page says so beside it (`?added=<id>`); an `added` from an earlier post
 * is dropped either way.
 */
export function backToItem(
  form: FormData,
  added: string | null,
  fallback = "/marketplace",
): string {
  const back = safeRedirect(form.get("redirectTo"), fallback);
  const anchor = String(form.get("anchor") ?? "");
  const atItem = ANCHOR.test(anchor);
  const url = new URL(back, "http://same.site");
  const mark = atItem ? added : null;
  if (url.searchParams.has(ADDED_PARAM) || mark) {
    url.searchParams.delete(ADDED_PARAM);
    if (mark) url.searchParams.set(ADDED_PARAM, mark);
  }
  const hash = atItem ? `#${anchor}` : url.hash;
  return safeRedirect(url.pathname + url.search + hash, fallback);
}
