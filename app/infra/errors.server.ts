/**
 * Errors a procedure may throw on purpose. Each carries the HTTP status the API
 * answers with and a message that is safe to show a user. Anything else is a bug and
 * answers 500 without details.
 */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly fieldErrors?: Record<string, string[]>,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const badRequest = (message: string, fieldErrors?: Record<string, string[]>) =>
  new HttpError(400, message, fieldErrors);
export const unauthorized = (message = "Unauthorized") => new HttpError(401, message);
export const forbidden = (message = "Forbidden") => new HttpError(403, message);
export const notFound = (message = "Not found") => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const payloadTooLarge = (message: string) => new HttpError(413, message);
export const unsupportedMedia = (message: string) => new HttpError(415, message);
/** 422: the request is well formed, but what it carries cannot be processed (a damaged file, one past a reader's limits). */
export const unprocessable = (message: string) => new HttpError(422, message);
export const tooManyRequests = (retryAfterSeconds: number, message: string) =>
  new HttpError(429, message, undefined, { "Retry-After": String(retryAfterSeconds) });
export const serviceUnavailable = (retryAfterSeconds: number, message: string) =>
  new HttpError(503, message, undefined, { "Retry-After": String(retryAfterSeconds) });
/** 507: the server (or the creator's share of it) has no room left for what the request would store. */
export const insufficientStorage = (message: string) => new HttpError(507, message);
