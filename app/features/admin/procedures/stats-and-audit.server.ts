import { z } from "zod";
import { auditQuerySchema } from "~/features/admin/schemas";
import { defineProcedure } from "~/infra/procedure.server";
import { testSalesCount } from "~/infra/payments/select-provider.server";
import { platformStats } from "~/features/admin/stats.server";
import { listAllImages } from "~/features/admin/images.server";
import { AUDIT_PAGE_SIZE, listAuditEntries } from "~/features/audit/public.server";
import { mailSetupAlert, undeliveredMail } from "~/features/mail/public.server";
import { listingsAwaitingConsent } from "~/features/market/public.server";

/**
 * The Admin Portal's operations serve both the /admin screen and its
 * /api/admin route; only the super admin may call them (401 signed out, 403
 * anyone else). On a production server, sales in the built-in test checkout
 * are not revenue (testSalesCount).
 */

// The platform's figures, every image, the mail queue's failures and the audit log.

export const adminStats = defineProcedure({
  name: "adminStats",
  access: "admin",
  input: z.object({}),
  run: ({ ctx }) => platformStats(ctx.db, { includeTestSales: testSalesCount(ctx.config) }),
});

/** The messages the mail queue gave up on, newest first: a broken mail setup shows here. */
export const adminUndeliveredMail = defineProcedure({
  name: "adminUndeliveredMail",
  access: "admin",
  input: z.object({}),
  run: ({ ctx }) => undeliveredMail(ctx.db),
});

/** Whether mail is blocked by its setup (a refused sender or login, nothing delivered since): the admin page's banner. */
export const adminMailSetupAlert = defineProcedure({
  name: "adminMailSetupAlert",
  access: "admin",
  input: z.object({}),
  run: ({ ctx }) => mailSetupAlert(ctx.db),
});

export const adminImages = defineProcedure({
  name: "adminImages",
  access: "admin",
  input: z.object({}),
  run: ({ ctx }) => listAllImages(ctx.db),
});

/** GET /api/admin/audit and the portal's Audit log: bans, unbans, user creation and refunds, newest first, a page at a time. */
export const adminAuditLog = defineProcedure({
  name: "adminAuditLog",
  access: "admin",
  input: auditQuerySchema,
  run: ({ input, ctx }) =>
    listAuditEntries(ctx.db, {
      before: input.cursor ? Number(input.cursor) : undefined,
      limit: input.limit ?? AUDIT_PAGE_SIZE,
    }),
});

/**
 * GET /api/admin/listings-awaiting-consent and the portal's section of the same name: active
 * listings the rule "only faces that agreed are sold" would refuse today (decision record 085),
 * listed before it by creators who had not verified their face, or of another person's face
 * without a release. They stay up; the admin decides.
 */
export const adminListingsAwaitingConsent = defineProcedure({
  name: "adminListingsAwaitingConsent",
  access: "admin",
  input: z.object({}),
  run: ({ ctx }) => listingsAwaitingConsent(ctx.db),
});
