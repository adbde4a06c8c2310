import { Link, useLocation } from "@remix-run/react";
import type { AuditEntry, AuditPage } from "~/features/admin/types";
import { adminHref } from "~/features/admin/components/admin-links";
import { stackedTable as t } from "~/ui/stacked-table";
import { SectionCard, StackedTable } from "~/ui/data-table";

const CELL = `${t.cell} sm:align-middle`;

/** The URL parameter that pages the Audit log (?audit=<cursor>). */
export const AUDIT_CURSOR_PARAM = "audit";

const ACTION_LABELS: Record<string, string> = {
  "user.ban": "Banned a user",
  "user.unban": "Unbanned a user",
  "user.create": "Created a user",
  "user.erase": "Erased an account",
  "order.refund": "Refunded an order",
  "order.refund_undone": "Gave back a refund (failed, or a dispute won on appeal)",
  "user.password_change": "Changed their password",
  "user.email_change": "Changed their email",
  "user.session_revoke": "Ended one of their sessions",
  "user.sign_out_elsewhere": "Signed out everywhere else",
  "job.retry": "Retried a job",
  "job.cancel": "Cancelled a job",
  "waitlist.invite": "Invited from the waitlist",
  "user.face_also_verified": "Verified a face already verified on another account",
  "report.remove": "Removed a reported listing",
  "report.dismiss": "Dismissed a report",
  "report.suspend": "Suspended a creator for upheld reports",
};

function actor(entry: AuditEntry): string {
  if (entry.actorId === "stripe") return "Stripe";
  return entry.actorEmail ?? entry.actorId;
}

function detailText(entry: AuditEntry): string {
  const detail = entry.detail;
  if (!detail) return "";
  if (
    (entry.action === "order.refund" || entry.action === "order.refund_undone") &&
    typeof detail.amountCents === "number"
  ) {
    const amount = (detail.amountCents / 100).toFixed(2);
    return `$${amount}${typeof detail.reason === "string" ? `: ${detail.reason}` : ""}`;
  }
  return JSON.stringify(detail);
}

/**
 * The Admin Portal's Audit log: bans, unbans, created users and refunds,
 * newest first, a page at a time (links, so it works without JavaScript).
 * Times are shown in UTC as stored, so the server and the browser agree.
 */
export function AuditLogSection({ page }: { page: AuditPage }) {
  const location = useLocation();
  const paged = new URLSearchParams(location.search).has(AUDIT_CURSOR_PARAM);
  return (
    <SectionCard
      id="audit"
      headingId="audit-heading"
      heading="Audit log"
      description={
        <p className="text-sm text-slate-600">
          Who banned, unbanned or created a user and who refunded an order, newest first.
        </p>
      }
      testId="audit-section"
    >
      {page.entries.length === 0 ? (
        <p className="px-4 py-10 text-center text-sm text-slate-600" data-testid="no-audit-entries">
          Nothing recorded yet.
        </p>
      ) : (
        <StackedTable
          label="Audit log table"
          minWidth="sm:min-w-[48rem]"
          caption="Audit log, newest first"
          columns={["When (UTC)", "Who", "What", "Subject", "Detail"]}
        >
          {page.entries.map((entry) => (
            <tr key={entry.id} data-testid="audit-row" className={t.row}>
              <td className={`${t.lead} sm:align-middle tabular-nums`}>
                <time dateTime={entry.createdAt}>
                  {entry.createdAt.slice(0, 16).replace("T", " ")}
                </time>
              </td>
              <td className={CELL} data-label="Who">
                <span className="truncate">{actor(entry)}</span>
              </td>
              <td className={CELL} data-label="What">
                {ACTION_LABELS[entry.action] ?? entry.action}
              </td>
              <td className={CELL} data-label="Subject">
                <code className="break-all text-xs">{entry.subjectId ?? ""}</code>
              </td>
              <td className={CELL} data-label="Detail">
                <span className="break-words">{detailText(entry)}</span>
              </td>
            </tr>
          ))}
        </StackedTable>
      )}
      {page.nextCursor || paged ? (
        <nav
          aria-label="Audit log pages"
          className="flex justify-end gap-2 border-t border-slate-200 px-4 py-3 text-sm"
        >
          {paged ? (
            <Link
              to={`${adminHref(location.search, { [AUDIT_CURSOR_PARAM]: null })}#audit`}
              className="btn-secondary"
            >
              Newest
            </Link>
          ) : null}
          {page.nextCursor ? (
            <Link
              to={`${adminHref(location.search, { [AUDIT_CURSOR_PARAM]: page.nextCursor })}#audit`}
              className="btn-secondary"
              data-testid="audit-older"
            >
              Older entries
            </Link>
          ) : null}
        </nav>
      ) : null}
    </SectionCard>
  );
}
