/**
 * What can go wrong talking to an SFTP server, as one error with a kind and a
 * sentence a creator can act on. `retryable` says whether trying again later
 * may help (the job worker reads it): a network failure may pass; a refused
 * password, a changed host key or a full or read-only server will not by
 * itself.
 */

export type SftpErrorKind =
  "auth" | "unreachable" | "timeout" | "host-key" | "no-space" | "refused" | "protocol";

const RETRYABLE: ReadonlySet<SftpErrorKind> = new Set(["unreachable", "timeout", "protocol"]);

export class SftpError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly kind: SftpErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "SftpError";
    this.retryable = RETRYABLE.has(kind);
  }
}

/** SFTP version 3 status codes (draft-ietf-secsh-filexfer-02), as ssh2 puts them on `error.code`. */
const FX_NO_SUCH_FILE = 2;
const FX_PERMISSION_DENIED = 3;
const FX_FAILURE = 4;
/** Not in version 3, but some servers answer it (draft 05 onward). */
const FX_NO_SPACE_ON_FILESYSTEM = 14;
const FX_QUOTA_EXCEEDED = 15;

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EPIPE",
]);

/** A connection or handshake error from ssh2 (or a socket), for the server at `where`. */
export function sftpErrorFrom(error: unknown, where: string): SftpError {
  if (error instanceof SftpError) return error;
  const details = error as { level?: unknown; code?: unknown; message?: unknown };
  const message = typeof details.message === "string" ? details.message : String(error);
  if (details.level === "client-authentication") {
    return new SftpError("auth", `The SFTP server at ${where} refused the username or password.`, {
      cause: error,
    });
  }
  if (details.level === "client-timeout" || /timed out/i.test(message)) {
    return new SftpError("timeout", `The SFTP server at ${where} did not answer in time.`, {
      cause: error,
    });
  }
  if (typeof details.code === "string" && NETWORK_CODES.has(details.code)) {
    const reason =
      details.code === "ENOTFOUND" || details.code === "EAI_AGAIN"
        ? "its name does not resolve"
        : "the connection failed";
    return new SftpError(
      "unreachable",
      `Could not reach the SFTP server at ${where} (${reason}).`,
      { cause: error },
    );
  }
  if (typeof details.code === "number") return statusError(details.code, message, where, error);
  return new SftpError(
    "protocol",
    `The SFTP server at ${where} broke off the session (${message.slice(0, 120)}).`,
    { cause: error },
  );
}

/** A failed upload of `remotePath`. */
export function sftpWriteError(error: unknown, remotePath: string): SftpError {
  if (error instanceof SftpError) return error;
  const details = error as { code?: unknown; message?: unknown };
  const message = typeof details.message === "string" ? details.message : String(error);
  if (typeof details.code === "number")
    return statusError(details.code, message, remotePath, error);
  return sftpErrorFrom(error, remotePath);
}

function statusError(code: number, message: string, subject: string, cause: unknown): SftpError {
  if (
    code === FX_NO_SPACE_ON_FILESYSTEM ||
    code === FX_QUOTA_EXCEEDED ||
    (code === FX_FAILURE && /space|quota|full/i.test(message))
  ) {
    return new SftpError(
      "no-space",
      `The SFTP server has no room for ${subject} (it said: ${message.slice(0, 120)}).`,
      { cause },
    );
  }
  if (code === FX_PERMISSION_DENIED || code === FX_NO_SUCH_FILE) {
    return new SftpError(
      "refused",
      `The SFTP server refused to write ${subject} (it said: ${message.slice(0, 120)}).`,
      { cause },
    );
  }
  return new SftpError(
    "refused",
    `The SFTP server could not store ${subject} (it said: ${message.slice(0, 120)}).`,
    { cause },
  );
}
