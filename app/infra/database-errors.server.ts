/**
 * Failures that mean "the database cannot be reached right now", as opposed to
 * a bug or a refused statement: the connection was refused or broke, the
 * server is shutting down or starting, or no connection came free in time.
 * The HTTP front answers them 503 with Retry-After (the database usually comes
 * back by itself: a restart, a failover), and boot refuses to start with one
 * line. Nothing was committed by a request that failed this way: each write
 * runs in a transaction, which PostgreSQL rolls back when its connection ends.
 */

/** Seconds a client is told to wait before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export const DATABASE_UNAVAILABLE_MESSAGE =
  "The database is unavailable for a moment. Please try again shortly.";

/** Socket errors on the way to the database server. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01 admin_shutdown,
 * 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or in recovery),
 * 53300 too_many_connections.
 */
const POSTGRES_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

/** What pg and pg-pool say when a connection ends or none could be had. */
const CONNECTION_MESSAGES = [
  /^Connection terminated/i,
  /^timeout exceeded when trying to connect/i,
  /is not queryable/i,
  /^Client was closed and is not queryable/i,
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== "object" || error === null) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === "string") {
    if (NETWORK_CODES.has(code) || POSTGRES_STATES.has(code) || code.startsWith("08")) return true;
  }
  if (typeof message === "string" && CONNECTION_MESSAGES.some((pattern) => pattern.test(message)))
    return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1)))
    return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/** One line for an operator: what failed and the cause, without a stack. */
export function databaseUnavailableLine(error: unknown, setting = "DATABASE_URL"): string {
  const detail = firstMessage(error);
  return `The database is unreachable${detail ? ` (${detail})` : ""}. Check ${setting} and that the database server is running.`;
}

function firstMessage(error: unknown): string {
  if (typeof error !== "object" || error === null) return String(error ?? "");
  const { message, code, errors } = error as {
    message?: unknown;
    code?: unknown;
    errors?: unknown;
  };
  if (typeof message === "string" && message.trim() !== "") return message.trim();
  if (Array.isArray(errors) && errors.length > 0) return firstMessage(errors[0]);
  return typeof code === "string" ? code : "";
}

/** PostgreSQL SQLSTATEs that mean the URL itself is wrong: bad credentials, no such database. */
const URL_STATES: Record<string, string> = {
  "28P01": "the password was refused",
  "28000": "the user may not connect",
  "3D000": "the database does not exist",
};

/**
 * Boot's refusal to start: the database cannot be reached or the URL is
 * wrong. scripts/start.mjs prints its message, one line, and exits 1.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}

/** The StartupError for a failure on the first contact with the database, or undefined when it is something else (a bug). */
export function startupRefusal(error: unknown): StartupError | undefined {
  if (isDatabaseUnavailable(error))
    return new StartupError(`Not starting: ${databaseUnavailableLine(error)}`);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code in URL_STATES) {
    return new StartupError(
      `Not starting: the database refused the connection: ${URL_STATES[code]} (${firstMessage(error)}). Check DATABASE_URL.`,
    );
  }
  return undefined;
}

/**
 * Whether a statement was refused by a unique index: SQLite's
 * SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY ("UNIQUE constraint failed: table.column")
 * or PostgreSQL's 23505 (with `table` and `detail` "Key (column)=(…) already
 * exists"). With `on`, only a violation on that table's column counts, so a
 * caller that expects one race does not swallow another.
 */
export function isUniqueViolation(error: unknown, on?: { table: string; column: string }): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message, table, detail } = error as Record<string, unknown>;
  const text = typeof message === "string" ? message : "";
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    return !on || text.includes(`${on.table}.${on.column}`);
  }
  if (code === "23505") {
    if (!on) return true;
    if (typeof table === "string" && table !== on.table) return false;
    // The key's columns only ("Key (column)=(value) …"): a value may contain any word.
    const key =
      typeof detail === "string" ? detail.slice(0, Math.max(0, detail.indexOf(")=("))) : "";
    return new RegExp(`\\b${on.column}\\b`).test(key);
  }
  return false;
}
