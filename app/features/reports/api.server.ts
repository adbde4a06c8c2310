import type { ApiRoute } from "~/infra/api-entry.server";
import {
  adminReports,
  confirmReport,
  decideReport,
  sendReport,
} from "~/features/reports/procedures.server";

/**
 * The /api endpoints of reports: anyone reports a listing or a storefront and
 * confirms it by the mailed link; the super admin lists and decides them.
 */
export const REPORTS_API: readonly ApiRoute[] = [
  {
    method: "POST",
    path: "/api/reports",
    summary:
      "Report a listing (`listingId`) or a storefront (`handle`), no account needed: 202, and a link to confirm the report is mailed to `email`. The same reporter reporting the same target again is the same report. 404 for an unknown or withdrawn target; 429 with Retry-After past the limits (nothing stored).",
    procedure: sendReport,
    auth: "bearer-or-cookie",
    input: "json",
    status: 202,
    errors: [404, 429],
  },
  {
    method: "POST",
    path: "/api/reports/confirm",
    summary:
      "Confirm a report with its mailed link's `token`: it is open and due for a decision 48 hours later (`dueAt`); an `intimate` report hides its target from every public page and API at once.",
    procedure: confirmReport,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [404],
  },
  {
    method: "GET",
    path: "/api/admin/reports",
    summary:
      "Confirmed reports, `status` open (the default) or closed, the oldest `dueAt` first (super admin only).",
    procedure: adminReports,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "POST",
    path: "/api/admin/reports/{id}",
    summary:
      "Decide a report, `remove` or `dismiss`, with a `note` (super admin only): `remove` withdraws the target everywhere it is published (answering in `leftUp` where it could not) and tells the creator and the reporter; `dismiss` tells the reporter. 409 for a report decided already.",
    procedure: decideReport,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [404, 409],
  },
];
