/**
 * Whether a page load is a fresh view (for the creators' view counts) rather
 * than the same page loading again after a form on it was used: a revalidation
 * after a cart change, or the post/redirect/get of a no-JS form, comes with
 * the page itself as Referer.
 */
export function isFreshView(request: Request): boolean {
  return isFreshVisit(new URL(request.url), request.headers.get("Referer"));
}

/** `isFreshView` of a page's address and the Referer it came with. */
export function isFreshVisit(address: URL, referer: string | null): boolean {
  const url = new URL(address);
  url.searchParams.delete("_data");
  if (!referer) return true;
  try {
    const from = new URL(referer);
    return from.origin !== url.origin || from.pathname + from.search !== url.pathname + url.search;
  } catch {
    return true;
  }
}
