import { HttpError } from "~/infra/errors.server";

/**
 * What object storage failures become: errors that say what failed and never
 * carry the SDK's request (its headers hold the signature and access key id).
 */

export const OBJECT_STORE_RETRY_AFTER_SECONDS = 10;

/** The object store could not be reached or answered 5xx: try again shortly (503 with Retry-After). */
export class ObjectStoreUnavailableError extends HttpError {
  constructor(operation: string) {
    super(
      503,
      `File storage is unavailable right now (${operation}); please try again shortly`,
      undefined,
      { "Retry-After": String(OBJECT_STORE_RETRY_AFTER_SECONDS) },
    );
    this.name = "ObjectStoreUnavailableError";
  }
}

/** The object store refused a request (a wrong bucket or credentials: a setting to fix). */
export class ObjectStoreError extends Error {
  constructor(operation: string, reason: string) {
    super(`File storage refused ${operation}: ${reason}`);
    this.name = "ObjectStoreError";
  }
}

/** A key with no object; `code` is ENOENT as for a missing file on the local volume. */
export class StoredFileMissingError extends Error {
  readonly code = "ENOENT";
  constructor(key: string) {
    super(`No stored file under ${key}`);
    this.name = "StoredFileMissingError";
  }
}

export function isObjectStoreUnavailable(error: unknown): error is ObjectStoreUnavailableError {
  return error instanceof ObjectStoreUnavailableError;
}

interface SdkErrorShape {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  $fault?: string;
}

/**
 * Whether an SDK error says the object is not there (404 / NoSuchKey /
 * NotFound). A missing bucket (NoSuchBucket, when the answer has a body to say
 * so) is a setting to fix, not a missing file.
 */
export function isMissingObject(error: unknown): boolean {
  const e = error as SdkErrorShape;
  if (e?.name === "NoSuchBucket") return false;
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Whether a HEAD answered 403. A HEAD answer has no body, so a 403 says no
 * more than "forbidden": AWS S3 answers it for a key with no object when the
 * credentials lack s3:ListBucket, but also for a wrong access key or signature.
 * The S3 store asks again with a GET, whose answer names the reason
 * (isAccessDenied).
 */
export function isForbidden(error: unknown): boolean {
  return (error as SdkErrorShape)?.$metadata?.httpStatusCode === 403;
}

/**
 * Whether a GET's 403 is AccessDenied (the policy's refusal), not a refusal of
 * the credentials (InvalidAccessKeyId, SignatureDoesNotMatch,
 * RequestTimeTooSkewed...). For a key the policy lets us read, AWS answers
 * AccessDenied when no object is there and s3:ListBucket is not granted.
 */
export function isAccessDenied(error: unknown): boolean {
  const e = error as SdkErrorShape;
  return e?.$metadata?.httpStatusCode === 403 && e?.name === "AccessDenied";
}

/** The SDK's error as one of ours: only its name and status survive, never its request. */
export function objectStoreError(operation: string, key: string, error: unknown): Error {
  if (isMissingObject(error)) return new StoredFileMissingError(key);
  const e = error as SdkErrorShape;
  const status = e?.$metadata?.httpStatusCode;
  const networkCodes = [
    "ECONNREFUSED",
    "ECONNRESET",
    "ENOTFOUND",
    "ETIMEDOUT",
    "EAI_AGAIN",
    "EPIPE",
  ];
  if (
    status === undefined ||
    status >= 500 ||
    networkCodes.includes(e?.code ?? "") ||
    e?.name === "TimeoutError"
  )
    return new ObjectStoreUnavailableError(operation);
  return new ObjectStoreError(operation, `${String(e?.name ?? "error")} (HTTP ${status})`);
}
