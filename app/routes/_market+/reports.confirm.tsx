import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { replyErrorLines } from "~/ui/form-field";
import { TokenConfirmation } from "~/ui/token-confirmation";
import { StepOutcome } from "~/ui/step-outcome";
import { BrandCardPage } from "~/ui/brand-card-page";
import { PRODUCT_NAME } from "~/lib/product";
import { REPORT_DUE_HOURS } from "~/features/reports/report-types";
import { confirmReport } from "~/features/reports/procedures.server";
import { submitForm } from "~/web/screen-action.server";
import { mailedLinkToken, TOKEN_PAGE_HEADERS } from "~/web/mailed-link.server";

export const meta: MetaFunction = () => [
  { title: `Confirm your report | ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

export const headers = () => TOKEN_PAGE_HEADERS;

/**
 * /reports/confirm?token=…: where the report mail's link leads. Opening it (a
 * GET, which mail scanners also do) changes nothing; its Confirm report button
 * posts the token, which opens the report.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const confirmed = new URL(request.url).searchParams.get("confirmed") === "1";
  return json({ token: mailedLinkToken(request), confirmed }, { headers: TOKEN_PAGE_HEADERS });
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
        <StepOutcome testId="report-confirmed">
          Your report is confirmed. We decide on it within {REPORT_DUE_HOURS} hours and email you
          the outcome.
        </StepOutcome>
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
