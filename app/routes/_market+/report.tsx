import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { StepOutcome } from "~/ui/step-outcome";
import { BrandCardPage } from "~/ui/brand-card-page";
import { MarketplaceRouteErrorPanel } from "~/ui/error-panel";
import { PRODUCT_NAME } from "~/lib/product";
import { REPORT_RECEIVED } from "~/features/reports/report-types";
import { ReportForm } from "~/features/reports/components/report-form";
import { reportTarget, sendReport } from "~/features/reports/procedures.server";
import { loadProcedure, submitForm } from "~/web/screen-action.server";

export const meta: MetaFunction = () => [
  { title: `Report | ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

/** A report names a reporter: never kept in a shared cache. */
export const headers = () => ({ "Cache-Control": "private, no-store" });

/**
 * /report?listing=<id> or /report?handle=<handle>: the form every listing
 * page's and storefront's Report link leads to (no account, no JavaScript
 * needed); 404 for an unknown or withdrawn listing or storefront. After a
 * report, /report?sent=1 says a confirmation link was mailed.
 */
export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  if (url.searchParams.get("sent") === "1") return json({ sent: true as const, target: null });
  const target = await loadProcedure(
    reportTarget,
    args,
    {
      listingId: url.searchParams.get("listing") ?? undefined,
      handle: url.searchParams.get("handle") ?? undefined,
    },
    null,
  );
  return json({ sent: false as const, target });
}

/** A report ends on the same confirmation whatever happened (a new report, or the same one again). */
export async function action(args: ActionFunctionArgs) {
  const outcome = await submitForm(sendReport, args, { user: null });
  if (!outcome.ok) return outcome.response;
  return redirect("/report?sent=1");
}

export default function ReportPage() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <BrandCardPage title="Report">
      {data.sent || !data.target ? (
        <StepOutcome testId="report-sent">{REPORT_RECEIVED}</StepOutcome>
      ) : (
        <ReportForm target={data.target} lastResult={lastResult} />
      )}
    </BrandCardPage>
  );
}

export function ErrorBoundary() {
  return (
    <MarketplaceRouteErrorPanel
      title="Report"
      detail="The report form could not be loaded. Please try again."
    />
  );
}
