import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { replyErrorLines } from "~/ui/form-field";
import { ConfirmByLinkPage } from "~/ui/confirm-by-link-page";
import { PRODUCT_NAME } from "~/lib/product";
import { REPORT_DUE_HOURS } from "~/features/reports/report-types";
import { confirmReport } from "~/features/reports/procedures.server";
import { submitForm } from "~/web/screen-action.server";
import { confirmByLinkPageData, TOKEN_PAGE_HEADERS } from "~/web/mailed-link.server";

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
  return confirmByLinkPageData(request);
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
    <ConfirmByLinkPage
      title="Confirm your report"
      token={token}
      confirmed={confirmed}
      errors={replyErrorLines(failed?.error)}
      outcome={
        <>
          Your report is confirmed. We decide on it within {REPORT_DUE_HOURS} hours and email you
          the outcome.
        </>
      }
      outcomeTestId="report-confirmed"
      invalidMessage="This confirmation link is not valid or has expired."
      invalidTestId="report-link-invalid"
      buttonTestId="confirm-report"
      label="Confirm report"
    >
      Press the button to send your report to our team. We decide on it within {REPORT_DUE_HOURS}{" "}
      hours.
    </ConfirmByLinkPage>
  );
}
