import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import type { CallContext } from "~/infra/call-context.server";
import { conflict, notFound } from "~/infra/errors.server";
import type { AdminJobRefusal } from "~/infra/jobs/job-queue.server";
import {
  announceJobs,
  cancelJob,
  listJobProblems,
  requeueFailedJob,
} from "~/infra/jobs/job-queue.server";
import type { AdminJob } from "~/features/admin/jobs-types";
import { recordAuditEntry } from "~/features/audit/public.server";
import { JOBS_LIST_LIMIT, QUEUED_TOO_LONG_MS } from "~/features/admin/jobs-types";

/**
 * The admin's Jobs view and its /api/admin/jobs routes: the jobs an operator
 * should look at (failed, and stuck: running past their lease or queued too
 * long), Retry for a failed job and Cancel for a queued or failed one. Only
 * the super admin may call them.
 */

const jobIdSchema = z.object({
  jobId: z.string({ error: "jobId is required" }).trim().min(1, "jobId is required").max(100),
});

export const adminJobs = defineProcedure({
  name: "adminJobs",
  access: "admin",
  input: z.object({}),
  run: async ({ ctx }): Promise<AdminJob[]> =>
    listJobProblems(ctx.db, {
      now: ctx.now,
      queuedTooLongMs: QUEUED_TOO_LONG_MS,
      limit: JOBS_LIST_LIMIT,
    }),
});

function refused(reason: AdminJobRefusal, what: "retried" | "cancelled"): never {
  if (reason === "not-found") throw notFound("No such job");
  if (reason === "running")
    throw conflict(`A worker is running this job right now; it cannot be ${what}.`);
  if (reason === "not-failed") throw conflict("Only a failed job can be retried.");
  throw conflict(`This job is finished; it cannot be ${what}.`);
}

/**
 * Changes a job the admin named, in one transaction with its audit entry:
 * `change` answers the job, or why it may not be changed (answered as 404/409).
 */
async function changeJob(
  ctx: CallContext,
  actorId: string,
  jobId: string,
  how: {
    change: typeof requeueFailedJob;
    what: "retried" | "cancelled";
    action: "job.retry" | "job.cancel";
  },
) {
  const job = await ctx.db.transaction().execute(async (trx) => {
    const result = await how.change(trx, jobId, ctx.now);
    if (!result.ok) refused(result.reason, how.what);
    await recordAuditEntry(trx, {
      actorId,
      action: how.action,
      subjectId: result.job.id,
      detail: { kind: result.job.kind },
      now: ctx.now,
    });
    return result.job;
  });
  return { id: job.id, kind: job.kind, status: job.status };
}

/** Queues a failed job again, due now, with fresh attempts (409 unless it is failed); the audit log records it. */
export const adminRetryJob = defineProcedure({
  name: "adminRetryJob",
  access: "admin",
  input: jobIdSchema,
  async run({ input, user, ctx }) {
    const job = await changeJob(ctx, user.id, input.jobId, {
      change: requeueFailedJob,
      what: "retried",
      action: "job.retry",
    });
    announceJobs();
    return job;
  },
});

/** Calls off a queued or failed job (409 for a running or finished one); the audit log records it. */
export const adminCancelJob = defineProcedure({
  name: "adminCancelJob",
  access: "admin",
  input: jobIdSchema,
  run: ({ input, user, ctx }) =>
    changeJob(ctx, user.id, input.jobId, {
      change: cancelJob,
      what: "cancelled",
      action: "job.cancel",
    }),
});
