/**
 * The Admin Portal keeps its state in the URL (?q= search, ?view= dialog) so it
 * works without JavaScript. These build its links from the current query.
 */
export function adminHref(search: string, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(name);
    else params.set(name, value);
  }
  const query = params.toString();
  return query ? `/admin?${query}` : "/admin";
}
