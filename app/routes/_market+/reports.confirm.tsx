import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { replyErrorLines } from "~/ui/form-field";
import { TokenConfirmation } from "~/ui/token-confirmation";
import { ReportOutcome } from "~/features/reports/components/report-outcome";
import { BrandCardPage } from "~/ui/brand-card-page";
import { PRODUCT_NAME } from "~/lib/product";
import { REPORT_DUE_HOURS } from "~/features/reports/report-types";
import { confirmReport } from "~/features/reports/procedures.server";
import { submitForm } from "~/web/screen-action.server";

export const meta: MetaFunction = () => [
  { title: `Confirm your report | ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

/** The page carries a live token in its URL: never cached, never sent to another site as a referrer. */
const PRIVATE = { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };
export const headers = () => PRIVATE;

/**
 * /reports/confirm?token=…: where the report mail's link leads. Opening it (a
 * GET, which mail scanners also do) changes nothing; its Confirm report button
 * posts the token, which opens the report.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const confirmed = url.searchParams.get("confirmed") === "1";
  const token = (url.searchParams.get("token") ?? "").slice(0, 200);
  return json({ token, confirmed }, { headers: PRIVATE });
}

export async function action(args: ActionFunctionArgs) {
  const outcome = await submitForm(confirmReport, args, { user: null });
  if (!outcome.ok) return outcome.response;
  return redirect("/reports/confirm?confirmed=1");
}

export default function ConfirmReport() {
  const { token, confirmed } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  return (
    <BrandCardPage title="Confirm your report">
      {confirmed ? (
        <ReportOutcome testId="report-confirmed">
          Your report is confirmed. We decide on it within {REPORT_DUE_HOURS} hours and email you
          the outcome.
        </ReportOutcome>
      ) : (
        <TokenConfirmation
          valid={token !== ""}
          token={token}
          message="This confirmation link is not valid or has expired."
          invalidTestId="report-link-invalid"
          errors={replyErrorLines(failed?.error)}
          formClassName="mt-6"
          buttonClassName="btn-primary w-full"
          buttonTestId="confirm-report"
          label="Confirm report"
          pendingLabel="Confirming..."
        >
          <p className="mt-2 text-sm text-slate-600">
            Press the button to send your report to our team. We decide on it within{" "}
            {REPORT_DUE_HOURS} hours.
          </p>
        </TokenConfirmation>
      )}
    </BrandCardPage>
  );
}
