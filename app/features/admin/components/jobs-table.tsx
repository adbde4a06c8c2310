import { useFetcher } from "@remix-run/react";
import type { AdminJob } from "~/features/admin/jobs-types";
import { ScrollingTable } from "~/ui/data-table";

const PROBLEM_LABEL: Record<AdminJob["problem"], string> = {
  failed: "Failed",
  "stuck-running": "Stuck: worker gone",
  "stuck-queued": "Stuck: waiting too long",
};

const PROBLEM_CLASS: Record<AdminJob["problem"], string> = {
  failed: "bg-red-100 text-red-900",
  "stuck-running": "bg-amber-100 text-amber-900",
  "stuck-queued": "bg-amber-100 text-amber-900",
};

const BUTTON_CLASS = "btn border bg-white px-3 py-1.5 text-sm disabled:opacity-60";

/** "3 min", "2 h", "4 d": how long ago an ISO time was, from `now` (the server's, so both renders agree). */
export function ageOf(iso: string, now: string): string {
  const seconds = Math.max(0, (Date.parse(now) - Date.parse(iso)) / 1000);
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} d`;
}

/**
 * Retry (a failed job) or Cancel (a queued or failed job): a POST form that
 * works without JavaScript (the action redirects back with a message) and,
 * with JavaScript, submits in the background, its button disabled meanwhile.
 */
function JobAction({
  job,
  intent,
  label,
}: {
  job: AdminJob;
  intent: "retry" | "cancel";
  label: string;
}) {
  const fetcher = useFetcher({ key: `job-${intent}-${job.id}` });
  const pending = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action="/admin/jobs">
      <input type="hidden" name="jobId" value={job.id} />
      <button
        type="submit"
        name="intent"
        value={intent}
        disabled={pending}
        aria-label={`${label} ${job.kind} job ${job.id}`}
        data-testid={`job-${intent}`}
        className={`${BUTTON_CLASS} ${
          intent === "retry"
            ? "border-emerald-300 text-emerald-800 hover:bg-emerald-50"
            : "border-red-300 text-red-700 hover:bg-red-50"
        }`}
      >
        {pending ? `${label}…` : label}
      </button>
    </fetcher.Form>
  );
}

/** The failed and stuck jobs, grouped by kind, each with its last error, attempts, age and actions. */
export function JobsTable({ jobs, now }: { jobs: readonly AdminJob[]; now: string }) {
  if (jobs.length === 0) {
    return (
      <p className="p-5 text-slate-700" data-testid="jobs-empty">
        No failed or stuck jobs. The queue is healthy.
      </p>
    );
  }
  const kinds = [...new Set(jobs.map((job) => job.kind))].sort();
  return (
    <div className="divide-y divide-slate-200">
      {kinds.map((kind) => {
        const ofKind = jobs.filter((job) => job.kind === kind);
        const headingId = `jobs-kind-${kind.replace(/[^A-Za-z0-9_-]/g, "-")}`;
        return (
          <section key={kind} aria-labelledby={headingId} data-testid="jobs-kind">
            <h2 id={headingId} className="px-5 pt-5 text-lg font-semibold text-slate-900">
              {kind} <span className="text-sm font-normal text-slate-600">({ofKind.length})</span>
            </h2>
            <ScrollingTable
              columns={["State", "Last error", "Attempts", "Age", "Actions"]}
              headClassName="text-left text-slate-600"
            >
              {ofKind.map((job) => (
                <tr key={job.id} data-testid="job-row" data-job-id={job.id}>
                  <td className="whitespace-nowrap px-5 py-3">
                    <span
                      className={`rounded-full px-2 py-0.5 text-xs font-semibold ${PROBLEM_CLASS[job.problem]}`}
                    >
                      {PROBLEM_LABEL[job.problem]}
                    </span>
                    <div className="mt-1 font-mono text-xs text-slate-600">{job.id}</div>
                    {job.requestId ? (
                      <div className="font-mono text-xs text-slate-600">
                        request {job.requestId}
                      </div>
                    ) : null}
                  </td>
                  <td className="max-w-md break-words px-5 py-3 text-slate-800">
                    {job.lastError ?? "None"}
                  </td>
                  <td className="whitespace-nowrap px-5 py-3 text-slate-800">
                    {job.attempts} of {job.maxAttempts}
                  </td>
                  <td className="whitespace-nowrap px-5 py-3 text-slate-800">
                    {ageOf(job.createdAt, now)}
                  </td>
                  <td className="px-5 py-3">
                    <div className="flex flex-wrap gap-2">
                      {job.status === "failed" ? (
                        <JobAction job={job} intent="retry" label="Retry" />
                      ) : null}
                      {job.status !== "running" ? (
                        <JobAction job={job} intent="cancel" label="Cancel" />
                      ) : (
                        <span className="text-slate-600">Taken again once its lease runs out</span>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </ScrollingTable>
          </section>
        );
      })}
    </div>
  );
}
