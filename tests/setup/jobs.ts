import { expect } from "vitest";
import { getDb } from "~/infra/db.server";
import { claimJob, enqueueJob, failJob } from "~/infra/jobs/job-queue.server";

/** The last error of the job failedTestJob makes. */
export const TEST_JOB_ERROR = "Provider said no";

/**
 * A job of a kind no worker runs, claimed once and failed for good: what the
 * admin's Retry and Cancel act on.
 */
export async function failedTestJob(): Promise<string> {
  // A kind of its own, so no other test job (one retried, say) is claimed in its place.
  const kind = `test-kind-${crypto.randomUUID()}`;
  const now = new Date();
  const id = await enqueueJob(getDb(), { kind, payload: {}, maxAttempts: 1, now });
  const claimed = await claimJob(getDb(), { kinds: [kind], token: "test", leaseMs: 60_000, now });
  expect(claimed?.id).toBe(id);
  await failJob(getDb(), id, "test", { error: TEST_JOB_ERROR, now });
  return id;
}
