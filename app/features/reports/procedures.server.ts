import { defineProcedure } from "~/infra/procedure.server";
import {
  REPORT_EMAIL_RATE_LIMIT,
  REPORT_RATE_LIMIT,
  throttleMailingForm,
} from "~/infra/rate-limit.server";
import { mailLinkOrigin } from "~/infra/configured-origin.server";
import { testSalesCount } from "~/infra/payments/select-provider.server";
import {
  adminReportsSchema,
  reportConfirmSchema,
  reportDecisionSchema,
  reportSchema,
  reportTargetSchema,
} from "./report-types";
import {
  confirmReport as confirmReportWithToken,
  decideReport as decide,
  listReports,
  reportTargetView,
  submitReport,
} from "./reports.server";

/**
 * Reports (reports.server.ts): anyone may report a listing or a storefront
 * (the /report form, POST /api/reports) and confirm it by the mailed link's
 * page (/reports/confirm, POST /api/reports/confirm); the super admin lists
 * and decides them (the admin portal's Reports section, /api/admin/reports).
 */

/** What the report form is for: the listing or storefront, or 404 for an unknown or withdrawn one. */
export const reportTarget = defineProcedure({
  name: "reportTarget",
  access: "public",
  input: reportTargetSchema,
  run: ({ input, ctx }) => reportTargetView(ctx.db, input),
});

/**
 * Sends a report: limited per client address (REPORTS_PER_ADDRESS an hour) and
 * per reporter email (REPORT_EMAIL_RATE_LIMIT), counted before anything is
 * read or stored, so a flood is a 429 with Retry-After that leaves nothing.
 */
export const sendReport = defineProcedure({
  name: "sendReport",
  access: "public",
  input: reportSchema,
  async run({ input, ctx }) {
    await throttleMailingForm(
      ctx,
      { perAddress: REPORT_RATE_LIMIT, perEmail: REPORT_EMAIL_RATE_LIMIT },
      input.email,
    );
    return submitReport(ctx.db, {
      input,
      origin: mailLinkOrigin(ctx.config, "A report's confirmation mail"),
      now: ctx.now,
    });
  },
});

/** The confirmation page's button: opens the report (an `intimate` one hides its target at once). */
export const confirmReport = defineProcedure({
  name: "confirmReport",
  access: "public",
  input: reportConfirmSchema,
  run: ({ input, ctx }) => confirmReportWithToken(ctx.db, { token: input.token, now: ctx.now }),
});

/** The admin's Reports: open (the default) or closed, the oldest due first. */
export const adminReports = defineProcedure({
  name: "adminReports",
  access: "admin",
  input: adminReportsSchema,
  run: ({ input, ctx }) => listReports(ctx.db, input.status ?? "open"),
});

/** The admin's decision on a report: remove or dismiss, with a note. */
export const decideReport = defineProcedure({
  name: "decideReport",
  access: "admin",
  input: reportDecisionSchema,
  run: ({ input, user, ctx }) =>
    decide(ctx.db, ctx.files, {
      id: input.id,
      decision: input.decision,
      note: input.note,
      adminId: user.id,
      now: ctx.now,
      suspendAt: ctx.config.UPHELD_REPORTS_TO_SUSPEND,
      includeTestSales: testSalesCount(ctx.config),
    }),
});
