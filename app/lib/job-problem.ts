/**
 * A job an operator should look at, as the queue lists it and the admin's Jobs
 * view shows it: failed, or stuck (running past its lease, or queued too long).
 */
export interface JobProblem {
  id: string;
  kind: string;
  status: "queued" | "running" | "failed";
  /** failed; stuck-running (its lease ran out); stuck-queued (due longer than the queue allows). */
  problem: "failed" | "stuck-running" | "stuck-queued";
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  requestId: string | null;
  createdAt: string;
  updatedAt: string;
}
