import { hrefWithQuery } from "~/lib/query-href";

/**
 * The Admin Portal keeps its state in the URL (?q= search, ?view= dialog) so it
 * works without JavaScript. These build its links from the current query.
 */
export function adminHref(search: string, changes: Record<string, string | null>): string {
  return hrefWithQuery("/admin", search, changes);
}
