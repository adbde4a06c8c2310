import { Form, useNavigation } from "@remix-run/react";
import { getFormProps, getTextareaProps } from "@conform-to/react";
import type { SubmissionResult } from "@conform-to/react";
import { EmailField, FieldErrorText, FormErrors } from "~/ui/form-field";
import { SubmitButton } from "~/ui/forms/post-form";
import { useScreenForm } from "~/ui/forms/use-screen-form";
import {
  REPORT_DETAILS_MAX,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  type ReportTargetView,
} from "~/features/reports/report-types";

/** The form's schema, loaded after the page rendered (until then the server validates). */
const loadSchema = () => import("~/features/reports/report-types").then((m) => m.reportSchema);

/**
 * The report form (/report): a reason, the reporter's email and details. A
 * plain form post, so it works without JavaScript; no account is needed.
 */
export function ReportForm({
  target,
  lastResult,
}: {
  target: ReportTargetView;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formAction === "/report";
  const [form, fields] = useScreenForm({ id: "report", loadSchema, lastResult });
  const reasonError = fields.reason.errors?.[0];
  return (
    <>
      <p className="mt-1 text-sm text-slate-600" data-testid="report-target">
        You are reporting {target.label}. We look at every confirmed report within 48 hours; a
        report of an intimate or sexual image hides it at once while we do.
      </p>
      <Form
        method="post"
        action="/report"
        {...getFormProps(form)}
        className="mt-6 space-y-4"
        data-testid="report-form"
      >
        <FormErrors
          errors={[...(form.errors ?? []), ...(fields.listingId.errors ?? [])]}
          id={form.errorId}
        />
        {target.listingId ? (
          <input type="hidden" name="listingId" value={target.listingId} />
        ) : (
          <input type="hidden" name="handle" value={target.handle ?? ""} />
        )}
        <fieldset aria-describedby={reasonError ? fields.reason.errorId : undefined}>
          <legend className="field-label">Reason</legend>
          <div className="mt-1 space-y-2">
            {REPORT_REASONS.map((reason) => (
              <label key={reason} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="radio"
                  name={fields.reason.name}
                  value={reason}
                  defaultChecked={fields.reason.initialValue === reason}
                  required
                  className="choice-input"
                />
                {REPORT_REASON_LABELS[reason]}
              </label>
            ))}
          </div>
          {reasonError ? (
            <p id={fields.reason.errorId} className="field-error">
              {reasonError}
            </p>
          ) : null}
        </fieldset>
        <EmailField field={fields.email} />
        <div>
          <label htmlFor={fields.details.id} className="field-label">
            Details
          </label>
          <textarea
            {...getTextareaProps(fields.details, { ariaAttributes: true })}
            key={fields.details.key}
            rows={5}
            maxLength={REPORT_DETAILS_MAX}
            className="field-input"
          />
          <FieldErrorText field={fields.details} />
        </div>
        <p className="text-xs text-slate-500">
          We mail you a link to confirm the report; nothing happens until you do.
        </p>
        <SubmitButton pending={pending} pendingLabel="Sending..." label="Send report" wide />
      </Form>
    </>
  );
}
