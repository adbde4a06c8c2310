import { apiNotFound } from "./api-adapter.server";
import { decodedAsRemixDecodes } from "./api-router.server";
import type { HandleRequest } from "./remix-handler.server";

/**
 * Remix matches a route's path with a regular expression whose `.` stops at
 * a line terminator (LF, CR, U+2028, U+2029), against the path decoded. An
 * /api path that holds one once decoded (`/api/token-images/%0A`) therefore
 * reaches neither the /api splat route nor the catch-all page route: Remix
 * answered the HTML 404 page and logged a stack trace each time (a way to
 * flood the log). Such a path is answered here, before Remix, with the /api
 * router's JSON 404, as every other unmatched /api path is; so is one with an
 * escape that does not decode (`%ZZ`, the overlong `%C0%AF`), which no
 * endpoint takes and of which Remix warns in the log each time.
 */

/** An /api path, as Remix matches it (case-insensitive; `/api` itself or under it). */
export const API_PATH = /^\/api(?:\/|$)/i;
/** What the /api splat route (`api/*`) matches, as Remix compiles it. */
const API_SPLAT = /^\/api(?:\/(.+)|\/*)$/i;

/** Whether `pathname` (as in a URL, percent-encoded) is an /api path the /api splat route cannot match, or that does not decode. */
export function isUnroutableApiPath(pathname: string): boolean {
  if (!API_PATH.test(pathname)) return false;
  const decoded = decodedAsRemixDecodes(pathname);
  return decoded === null || !API_SPLAT.test(decoded);
}

/** Remix's handler, with the /api paths it cannot route answered the JSON 404 first. */
export function answeringUnroutableApiPaths(handle: HandleRequest): HandleRequest {
  return (request, context) =>
    isUnroutableApiPath(new URL(request.url).pathname)
      ? Promise.resolve(apiNotFound())
      : handle(request, context);
}
