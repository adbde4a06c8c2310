import { Link } from "@remix-run/react";
import { reportHref } from "~/features/reports/report-href";

/**
 * The "Report" link every listing page and storefront shows: it leads to the
 * report form (/report), which works without JavaScript and without an account.
 */
export function ReportLink({
  target,
  what,
}: {
  target: { listingId: string } | { handle: string };
  /** What is reported, for assistive tech ("this image", "this storefront"). */
  what: string;
}) {
  return (
    <Link
      to={reportHref(target)}
      className="inline-flex items-center gap-1 text-sm text-slate-600 underline hover:text-slate-900"
      data-testid="report-link"
      rel="nofollow"
      aria-label={`Report ${what}`}
    >
      Report
    </Link>
  );
}
