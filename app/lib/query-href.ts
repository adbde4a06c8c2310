/**
 * `path` with the query `search` (e.g. location.search) changed: each named
 * parameter set to its value, or removed when its value is null or empty. The
 * pages that keep a dialog or a search in the URL (the admin portal, a
 * confirmation opened without JavaScript) build their links with it.
 */
export function hrefWithQuery(
  path: string,
  search: string,
  changes: Record<string, string | null>,
): string {
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(name);
    else params.set(name, value);
  }
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
