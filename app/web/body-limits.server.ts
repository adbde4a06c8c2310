import type { IncomingMessage } from "node:http";
import { MAX_UPLOAD_BYTES } from "~/lib/limits";

/**
 * How much body each request may carry, decided from its path and type before
 * a byte of it is read.
 *
 * - Everything is held to 1 MB and read in full at the edge before the route
 *   runs, so a route never answers with the client still sending.
 * - The upload routes (an original: the API's and the dashboard's; a profile
 *   photo: the API's and the Profile tab's; a model release's PDF: the API's and
 *   the release page's) take multipart bodies up to 10 MB
 *   plus the multipart overhead, and stream them to the route (which writes the file to disk as it
 *   arrives). The edge only counts: past the limit the stream fails with a 413.
 */
export const FORM_BODY_LIMIT = 1024 * 1024;
/** Room for boundaries, part headers and small fields around the file, and a little slack past the route's own limit. */
export const MULTIPART_OVERHEAD = 128 * 1024;
export const UPLOAD_BODY_LIMIT = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD;

/** The routes that receive an image upload as a multipart stream. */
export const UPLOAD_PATHS: ReadonlySet<string> = new Set([
  "/api/token-images/upload",
  "/dashboard",
  "/api/account/avatar",
  "/settings",
  "/studio/release",
]);

/** Upload routes with a path parameter (a stylized image's model release, a PDF). */
export const UPLOAD_PATH_PATTERNS: readonly RegExp[] = [
  /^\/api\/token-stylized-images\/[^/]+\/model-release$/,
];

export interface BodyLimit {
  bytes: number;
  /** Streamed to the route as it arrives (uploads) rather than read in full first. */
  streamed: boolean;
}

export function bodyLimitFor(path: string, contentType: string | undefined): BodyLimit {
  const multipart = (contentType ?? "").toLowerCase().startsWith("multipart/form-data");
  const bare = stripTrailingSlash(path);
  if (
    multipart &&
    (UPLOAD_PATHS.has(bare) || UPLOAD_PATH_PATTERNS.some((pattern) => pattern.test(bare)))
  ) {
    return { bytes: UPLOAD_BODY_LIMIT, streamed: true };
  }
  return { bytes: FORM_BODY_LIMIT, streamed: false };
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
