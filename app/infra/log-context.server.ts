import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

/**
 * What every log line written on behalf of one request, or one job, carries:
 * the request id (the request's own, or the one of the request that queued
 * the job), while serving a request the caller's own id when it sent one, and,
 * in a job, the job's id and kind. Kept in AsyncLocalStorage, so code deep in
 * a call writes its lines without passing anything down.
 */
export interface LogContext {
  /** Always one we made (a UUID): the caller cannot choose it, so it names one request and the jobs it queued. */
  requestId?: string;
  /** The caller's `X-Request-Id` (a proxy's, say) when well-formed: logged beside ours, stored nowhere. */
  callerRequestId?: string;
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

/** A new request id: ours, whatever the caller sent. */
export function newRequestId(): string {
  return randomUUID();
}

/** The caller's `X-Request-Id` when it is well-formed (to log beside ours); otherwise none. */
export function callerRequestIdFrom(incoming: string | null | undefined): string | undefined {
  return incoming && WELL_FORMED_REQUEST_ID.test(incoming) ? incoming : undefined;
}
