import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

/**
 * What every log line written on behalf of one request, or one job, carries:
 * the request id (the request's own, or the one of the request that queued
 * the job) and, in a job, the job's id and kind. Kept in AsyncLocalStorage,
 * so code deep in a call writes its lines without passing anything down.
 */
export interface LogContext {
  requestId?: string;
  jobId?: string;
  jobKind?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

/** Runs `work` with `context` as the log context (replacing any outer one). */
export function withLogContext<T>(context: LogContext, work: () => T): T {
  return storage.run(context, work);
}

/** Runs `work` outside any request's or job's context (timers the worker sets for itself). */
export function withoutLogContext<T>(work: () => T): T {
  return storage.exit(work);
}

export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}

/** The request id of the request (or job) being served, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Letters, digits and `._:-`, 8 to 128 of them: what a proxy's or a client's id looks like, and nothing that could forge a log line. */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** The caller's `X-Request-Id` when it is well-formed; otherwise a new one (a UUID). */
export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && WELL_FORMED_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
