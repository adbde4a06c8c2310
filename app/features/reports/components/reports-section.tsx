import { Form, Link } from "@remix-run/react";
import {
  REPORT_NOTE_MAX,
  REPORT_REASON_LABELS,
  timeLeftText,
  type ReportJson,
} from "~/features/reports/report-types";

/** The admin's view of the reports: open (the default) or the decided ones. */
export const REPORTS_VIEW_PARAM = "reports";

/**
 * The admin portal's Reports section: confirmed reports, the oldest due first,
 * each with its time left (overdue ones in red) and, while open, a note and
 * Remove or Dismiss (plain form posts, so it works without JavaScript).
 * `now` is the loader's clock, so the server and the browser agree.
 */
export function ReportsSection({
  reports,
  view,
  now,
  closedHref,
  openHref,
}: {
  reports: readonly ReportJson[];
  view: "open" | "closed";
  now: string;
  closedHref: string;
  openHref: string;
}) {
  const at = new Date(now);
  const overdue = reports.filter(
    (report) => report.status === "open" && report.dueAt && timeLeftText(report.dueAt, at).overdue,
  ).length;
  return (
    <section
      id="reports"
      aria-labelledby="reports-heading"
      className="card mt-8 scroll-mt-24 overflow-hidden"
      data-testid="admin-reports"
    >
      <div className="flex flex-col gap-2 border-b border-slate-200 p-5 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="reports-heading" className="text-lg font-semibold text-slate-900">
            Reports
          </h2>
          <p className="text-sm text-slate-600" data-testid="reports-summary">
            {view === "open"
              ? `${reports.length} open, ${overdue} overdue; the oldest due first. Each is due 48 hours after its reporter confirmed it.`
              : `${reports.length} decided.`}
          </p>
        </div>
        <Link
          to={view === "open" ? closedHref : openHref}
          className="text-sm font-medium text-brand-700 underline"
        >
          {view === "open" ? "Show decided reports" : "Show open reports"}
        </Link>
      </div>
      {reports.length === 0 ? (
        <p className="p-5 text-sm text-slate-600">
          {view === "open" ? "No report waits for a decision." : "No report was decided yet."}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {reports.map((report) => (
            <ReportItem key={report.id} report={report} now={at} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ReportItem({ report, now }: { report: ReportJson; now: Date }) {
  const left = report.dueAt ? timeLeftText(report.dueAt, now) : null;
  const target = report.listingId
    ? { href: `/marketplace/${report.listingId}`, text: report.title ?? report.listingId }
    : { href: `/creators/${report.handle ?? ""}`, text: `@${report.handle ?? ""}` };
  const noteId = `report-note-${report.id}`;
  return (
    <li className="space-y-3 p-5" data-testid="report-item">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-medium wrap-anywhere text-slate-900">
            {REPORT_REASON_LABELS[report.reason]}:{" "}
            <Link to={target.href} className="text-brand-700 underline">
              {target.text}
            </Link>
            {report.hidden ? (
              <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900">
                Hidden pending decision
              </span>
            ) : null}
          </p>
          <p className="text-sm wrap-anywhere text-slate-600">
            From {report.email} · reported {report.createdAt.slice(0, 16).replace("T", " ")} UTC
          </p>
        </div>
        {report.status === "open" && left ? (
          <p
            className={
              left.overdue ? "text-sm font-semibold text-red-700" : "text-sm text-slate-700"
            }
            data-testid="report-time-left"
            data-overdue={left.overdue ? "true" : "false"}
          >
            Due {report.dueAt?.slice(0, 16).replace("T", " ")} UTC ({left.text})
          </p>
        ) : (
          <p className="text-sm text-slate-700" data-testid="report-decision">
            {report.decision === "remove" ? "Removed" : "Dismissed"}
            {report.decidedAt ? ` ${report.decidedAt.slice(0, 16).replace("T", " ")} UTC` : ""}
            {report.note ? `: ${report.note}` : ""}
          </p>
        )}
      </div>
      {report.details ? (
        <p className="rounded-lg bg-slate-50 p-3 text-sm whitespace-pre-line wrap-anywhere text-slate-800">
          {report.details}
        </p>
      ) : null}
      {report.status === "open" ? (
        <Form method="post" action="/admin#reports" className="space-y-2">
          <input type="hidden" name="intent" value="decide-report" />
          <input type="hidden" name="id" value={report.id} />
          <label htmlFor={noteId} className="field-label">
            Note
          </label>
          <textarea
            id={noteId}
            name="note"
            required
            rows={2}
            maxLength={REPORT_NOTE_MAX}
            className="field-input"
          />
          <div className="flex gap-2">
            <button
              type="submit"
              name="decision"
              value="remove"
              className="btn-primary"
              aria-label={`Remove ${target.text}`}
            >
              Remove
            </button>
            <button
              type="submit"
              name="decision"
              value="dismiss"
              className="btn-secondary"
              aria-label={`Dismiss the report of ${target.text}`}
            >
              Dismiss
            </button>
          </div>
        </Form>
      ) : null}
    </li>
  );
}
