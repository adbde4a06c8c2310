import { format } from "node:util";
import { currentLogContext } from "./log-context.server";

/**
 * The process's one logger. LOG_FORMAT=json writes each line as one JSON
 * object on stdout (warnings and errors on stderr): `time`, `level`, `msg`,
 * the request id and job of the current log context, and any fields given.
 * LOG_FORMAT=text writes the message as a plain line, as a terminal reads it.
 * Default: json when NODE_ENV=production, text otherwise.
 *
 * Secrets never reach a line: Authorization and cookie headers, bearer
 * tokens, tokens in URLs and AWS keys are replaced by `[redacted]`, and
 * fields with such names are dropped to `[redacted]`.
 */

export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFormat = "json" | "text";
export type LogFields = Record<string, unknown>;

type Write = (line: string, level: LogLevel) => void;

const original = {
  log: console.log.bind(console),
  info: console.info.bind(console),
  warn: console.warn.bind(console),
  error: console.error.bind(console),
  debug: console.debug.bind(console),
};

/** The format LOG_FORMAT asks for, else json in production and text elsewhere. */
export function logFormatFrom(env: NodeJS.ProcessEnv = process.env): LogFormat {
  if (env.LOG_FORMAT === "json" || env.LOG_FORMAT === "text") return env.LOG_FORMAT;
  return env.NODE_ENV === "production" ? "json" : "text";
}

const SECRET_NAMES =
  /^(authorization|cookie|set-cookie|password|passphrase|secret|token|api[-_]?key|access[-_]?token|refresh[-_]?token|aws[-_]?secret[-_]?access[-_]?key|aws[-_]?session[-_]?token|x-amz-security-token|x-amz-signature|private[-_]?key)$/i;

const SECRET_PATTERNS: [RegExp, string][] = [
  // Header lines or JSON fields: Authorization (its scheme and credentials), Cookie and Set-Cookie (every pair).
  [
    /\b(authorization|proxy-authorization)(["']?\s*[:=]\s*["']?)(?:[A-Za-z0-9-]+\s+)?[^\s"',]+/gi,
    "$1$2[redacted]",
  ],
  [/\b(cookie|set-cookie)(["']?\s*[:=]\s*["']?)(?:[^\s;"']+; ?)*[^\s;"']+/gi, "$1$2[redacted]"],
  // AWS signature v4 parts (an Authorization header's or a presigned URL's).
  [/\b(Credential|Signature)=[^\s,&"']+/g, "$1=[redacted]"],
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{4,}/gi, "$1 [redacted]"],
  // Secrets in URLs and query strings (presigned URLs, reset links).
  [
    /([?&;](?:token|access_token|key|secret|password|signature|x-amz-signature|x-amz-credential|x-amz-security-token)=)[^&\s"']*/gi,
    "$1[redacted]",
  ],
  // A download link's token is in its path.
  [/(\/downloads\/)[^\s/?#"']+/g, "$1[redacted]"],
  // AWS access key ids and secret keys.
  [/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, "[redacted]"],
  [
    /\b(aws_secret_access_key|aws_session_token|AWS_SECRET_ACCESS_KEY|AWS_SESSION_TOKEN)(\s*[:=]\s*)\S+/g,
    "$1$2[redacted]",
  ],
  // Connection strings with a password: scheme://user:password@host.
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:)[^@\s/]+@/gi, "$1[redacted]@"],
];

/** The text with anything that looks like a credential replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  let result = text;
  for (const [pattern, replacement] of SECRET_PATTERNS)
    result = result.replace(pattern, replacement);
  return result;
}

/** An error as plain fields (name, message, stack, code), redacted; never its request or headers. */
export function describeError(error: unknown): LogFields {
  if (error instanceof Error) {
    const fields: LogFields = { name: error.name, message: redactSecrets(error.message) };
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" || typeof code === "number") fields.code = code;
    if (error.stack) fields.stack = redactSecrets(error.stack);
    if (error.cause !== undefined) fields.cause = describeError(error.cause);
    return fields;
  }
  return { message: redactSecrets(typeof error === "string" ? error : format("%o", error)) };
}

function cleanFields(fields: LogFields, depth = 0): LogFields {
  const clean: LogFields = {};
  for (const [name, value] of Object.entries(fields)) {
    if (SECRET_NAMES.test(name)) clean[name] = "[redacted]";
    else if (value instanceof Error) clean[name] = describeError(value);
    else if (typeof value === "string") clean[name] = redactSecrets(value);
    else if (value && typeof value === "object" && !Array.isArray(value) && depth < 3)
      clean[name] = cleanFields(value as LogFields, depth + 1);
    else clean[name] = value;
  }
  return clean;
}

export class Logger {
  constructor(
    private readonly logFormat: LogFormat,
    private readonly write: Write,
  ) {}

  get format(): LogFormat {
    return this.logFormat;
  }

  debug(msg: string, fields?: LogFields) {
    this.line("debug", msg, fields);
  }
  info(msg: string, fields?: LogFields) {
    this.line("info", msg, fields);
  }
  warn(msg: string, fields?: LogFields) {
    this.line("warn", msg, fields);
  }
  error(msg: string, fields?: LogFields) {
    this.line("error", msg, fields);
  }

  /** One line of the given level: `msg` and `fields`, with the current request id and job. */
  line(level: LogLevel, msg: string, fields: LogFields = {}) {
    const text = redactSecrets(msg);
    if (this.logFormat === "text") {
      const error = fields.error;
      const stack =
        error instanceof Error ? `\n${redactSecrets(error.stack ?? String(error))}` : "";
      this.write(`${text}${stack}`, level);
      return;
    }
    const context = currentLogContext();
    const entry: LogFields = {
      time: new Date().toISOString(),
      level,
      msg: text,
      ...(context?.requestId ? { requestId: context.requestId } : {}),
      ...(context?.callerRequestId ? { callerRequestId: context.callerRequestId } : {}),
      ...(context?.jobId ? { jobId: context.jobId, jobKind: context.jobKind } : {}),
      ...cleanFields(fields),
    };
    this.write(JSON.stringify(entry), level);
  }
}

/** Writes json lines straight to the process's streams; text lines through the console as before. */
function processWrite(logFormat: LogFormat): Write {
  if (logFormat === "text") {
    return (line, level) =>
      level === "error"
        ? original.error(line)
        : level === "warn"
          ? original.warn(line)
          : original.log(line);
  }
  return (line, level) =>
    (level === "error" || level === "warn" ? process.stderr : process.stdout).write(`${line}\n`);
}

const globalForLogger = globalThis as unknown as { __selfieStudioLogger?: Logger };

/** The process's logger (format from LOG_FORMAT / NODE_ENV, chosen on first use). */
export function getLogger(): Logger {
  globalForLogger.__selfieStudioLogger ??= new Logger(
    logFormatFrom(),
    processWrite(logFormatFrom()),
  );
  return globalForLogger.__selfieStudioLogger;
}

/** Replaces the process's logger (tests). */
export function setLogger(logger: Logger | undefined): void {
  globalForLogger.__selfieStudioLogger = logger;
}

/** A console call's arguments as a message and fields: the first Error becomes `error`. */
export function consoleArgs(args: unknown[]): { msg: string; fields: LogFields } {
  const error = args.find((arg) => arg instanceof Error);
  const rest = args.filter((arg) => arg !== error);
  const msg = rest.length > 0 ? format(...(rest as [unknown, ...unknown[]])) : "";
  return {
    msg: msg || (error instanceof Error ? error.message : ""),
    fields: error ? { error: describeError(error) } : {},
  };
}

let routed = false;

/**
 * Sends every console.log/info/warn/error/debug of the process through the
 * logger, so the lines of code that logs with the console are JSON lines with
 * the request id too. Only in json format: text keeps the console as it is.
 */
export function routeConsoleThroughLogger(logger: Logger = getLogger()): void {
  if (routed || logger.format !== "json") return;
  routed = true;
  const route =
    (level: LogLevel) =>
    (...args: unknown[]) => {
      const { msg, fields } = consoleArgs(args);
      logger.line(level, msg, fields);
    };
  console.log = route("info");
  console.info = route("info");
  console.warn = route("warn");
  console.error = route("error");
  console.debug = route("debug");
}
