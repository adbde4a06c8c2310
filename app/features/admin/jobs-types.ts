/** A job the admin's Jobs view shows: failed, or stuck (running past its lease, or queued too long). */
export interface AdminJob {
  id: string;
  kind: string;
  status: "queued" | "running" | "failed";
  problem: "failed" | "stuck-running" | "stuck-queued";
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  requestId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A queued job due for longer than this counts as stuck (15 minutes). */
export const QUEUED_TOO_LONG_MS = 15 * 60_000;

/** The Jobs view shows at most this many jobs, newest first. */
export const JOBS_LIST_LIMIT = 200;
