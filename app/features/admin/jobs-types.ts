import type { JobProblem } from "~/lib/job-problem";

/** A job the admin's Jobs view shows: failed, or stuck (running past its lease, or queued too long). */
export type AdminJob = JobProblem;

/** A queued job due for longer than this counts as stuck (15 minutes). */
export const QUEUED_TOO_LONG_MS = 15 * 60_000;

/** The Jobs view shows at most this many jobs, newest first. */
export const JOBS_LIST_LIMIT = 200;
