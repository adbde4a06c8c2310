import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { json } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { AccessDenied } from "~/features/admin/components/access-denied";
import { JobsTable } from "~/features/admin/components/jobs-table";
import { adminCancelJob, adminJobs, adminRetryJob } from "~/features/admin/procedures/jobs.server";
import { ACCESS_DENIED } from "~/features/admin/types";
import { PRODUCT_NAME } from "~/lib/product";
import { BackLink } from "~/ui/back-link";
import { loadProcedure, screenAction } from "~/web/screen-action.server";
import { flashIntent, unknownAdminIntent } from "~/routes/_admin+/admin-screen.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { ErrorPage } from "~/ui/error-panel";

export const meta: MetaFunction = ({ error }) => [
  {
    title: `${isRouteErrorResponse(error) && error.status === 403 ? ACCESS_DENIED.title : "Jobs"} | ${PRODUCT_NAME}`,
  },
];

/** Admin data never goes into a shared cache. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export async function loader(args: LoaderFunctionArgs) {
  const admin = await requireScreenUser(args.request, { access: "admin" });
  const jobs = await loadProcedure(adminJobs, args, {}, admin);
  return json({ jobs, now: new Date().toISOString() });
}

const HERE = "/admin/jobs";

export async function action(args: ActionFunctionArgs) {
  const admin = await requireScreenUser(args.request, { access: "admin" });
  return screenAction(args, {
    user: admin,
    unknownIntent: unknownAdminIntent,
    intents: {
      retry: flashIntent({
        procedure: adminRetryJob,
        refusedAt: HERE,
        refused: { title: "The job was not retried", otherwise: "The job could not be retried." },
        done: (job) => ({
          title: "Job queued again",
          description: `The ${job.kind} job will run again shortly.`,
        }),
      }),
      cancel: flashIntent({
        procedure: adminCancelJob,
        refusedAt: HERE,
        refused: {
          title: "The job was not cancelled",
          otherwise: "The job could not be cancelled.",
        },
        done: (job) => ({
          title: "Job cancelled",
          description: `The ${job.kind} job will not run.`,
        }),
      }),
    },
  });
}

export default function AdminJobs() {
  const { jobs, now } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:py-10">
      <BackLink to="/admin">Back to Admin Portal</BackLink>
      <header className="mt-4">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Jobs</h1>
        <p className="mt-1 text-slate-600">
          Background jobs that failed, and stuck ones: running after their worker stopped renewing
          its lease, or waiting more than 15 minutes. Retry queues a failed job again; Cancel calls
          off a waiting or failed one.
        </p>
      </header>
      <div className="card mt-8 overflow-hidden" data-testid="jobs">
        <JobsTable jobs={jobs} now={now} />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) return <AccessDenied />;
  return <ErrorPage error={error} />;
}
