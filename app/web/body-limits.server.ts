import type { IncomingMessage } from "node:http";
import { MAX_UPLOAD_BYTES } from "~/lib/limits";
import type { ApiRoute } from "~/infra/api-entry.server";
import { apiPathMatcher } from "./api-paths.server";

/**
 * How much body each request may carry, decided from its path and type before
 * a byte of it is read.
 *
 * - Everything is held to 1 MB and read in full at the edge before the route
 *   runs, so a route never answers with the client still sending.
 * - The upload routes take multipart bodies up to 10 MB plus the multipart
 *   overhead, and stream them to the route (which writes the file to disk as
 *   it arrives). The edge only counts: past the limit the stream fails with a
 *   413. On /api they are the route table's entries whose `input` is
 *   `multipart` (an original, a profile photo, a model release's PDF), matched
 *   as the router matches them; the screens' are named below (the dashboard's
 *   originals, the Profile tab's photo, the release page's PDF, the file the
 *   Content Credentials check reads).
 */
export const FORM_BODY_LIMIT = 1024 * 1024;
/** Room for boundaries, part headers and small fields around the file, and a little slack past the route's own limit. */
export const MULTIPART_OVERHEAD = 128 * 1024;
export const UPLOAD_BODY_LIMIT = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD;

/** The screens that receive an upload as a multipart stream (the /api ones come from the route table). */
export const SCREEN_UPLOAD_PATHS: ReadonlySet<string> = new Set([
  "/dashboard",
  "/settings",
  "/studio/release",
  "/provenance",
]);

export interface BodyLimit {
  bytes: number;
  /** Streamed to the route as it arrives (uploads) rather than read in full first. */
  streamed: boolean;
}

/** The body limit of a request, from its path and Content-Type. */
export type BodyLimitFor = (path: string, contentType: string | undefined) => BodyLimit;

/** The body limits of the site whose /api endpoints are `apiRoutes` (the route table). */
export function bodyLimits(apiRoutes: readonly ApiRoute[]): BodyLimitFor {
  const apiUploads = apiRoutes
    .filter((route) => route.input === "multipart")
    .map((route) => apiPathMatcher(route.path));
  return (path, contentType) => {
    const multipart = (contentType ?? "").toLowerCase().startsWith("multipart/form-data");
    if (
      multipart &&
      (SCREEN_UPLOAD_PATHS.has(stripTrailingSlash(path)) ||
        apiUploads.some((matcher) => matcher.test(path)))
    ) {
      return { bytes: UPLOAD_BODY_LIMIT, streamed: true };
    }
    return { bytes: FORM_BODY_LIMIT, streamed: false };
  };
}

/** The declared Content-Length, or undefined for a chunked body (or none). */
export function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers["content-length"];
  if (header === undefined) return undefined;
  const value = Number(header);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** Whether the request carries a body at all (Node's parser has framed one). */
export function hasBody(req: IncomingMessage): boolean {
  const declared = declaredLength(req);
  return declared !== undefined ? declared > 0 : req.headers["transfer-encoding"] !== undefined;
}

const stripTrailingSlash = (path: string) =>
  path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
