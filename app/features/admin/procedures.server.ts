import { z } from "zod";
import { adminCreateUserSchema, adminUserSearchSchema, auditQuerySchema, userStatusSchema } from "~/features/admin/schemas";
import { defineProcedure } from "~/infra/procedure.server";
import { notFound } from "~/infra/errors.server";
import { platformStats } from "~/features/admin/stats.server";
import { findUserForAdmin, listUsersForAdmin } from "~/features/admin/users.server";
import { listAllImages } from "~/features/admin/images.server";
import { setUserStatus } from "~/features/admin/user-status.server";
import { createUserAsAdmin } from "~/features/admin/create-user.server";
import { AUDIT_PAGE_SIZE, listAuditEntries } from "~/features/admin/audit.server";
import { testSalesCount } from "~/infra/payments/select-provider.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { mailSetupAlert, undeliveredMail } from "~/features/mail/lends.server";

/**
 * The Admin Portal's operations. Each serves both the /admin
 * screen and its /api/admin route; only the super admin may call them
 * (401 signed out, 403 anyone else). On a production server, sales in the
 * built-in test checkout are not revenue (testSalesCount).
 */

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

export const adminUsers = defineProcedure({
  name: "adminUsers",
  access: "admin",
  input: adminUserSearchSchema,
  run: ({ input, ctx }) => listUsersForAdmin(ctx.db, { q: input.q, includeTestSales: testSalesCount(ctx.config) }),
});

export const adminUser = defineProcedure({
  name: "adminUser",
  access: "admin",
  input: z.object({ userId: z.string().trim().min(1).max(200) }),
  async run({ input, ctx }) {
    const user = await findUserForAdmin(ctx.db, input.userId, { includeTestSales: testSalesCount(ctx.config) });
    if (!user) throw notFound("User not found");
    return user;
  },
});

export const adminImages = defineProcedure({
  name: "adminImages",
  access: "admin",
  input: z.object({}),
  run: ({ ctx }) => listAllImages(ctx.db),
});

/** Ban or unban; a ban ends the user's sessions and tokens at once. */
export const changeUserStatus = defineProcedure({
  name: "changeUserStatus",
  access: "admin",
  input: userStatusSchema,
  async run({ input, user, ctx }) {
    const result = await setUserStatus(ctx.db, {
      actorId: user.id,
      userId: input.userId,
      action: input.action,
      now: ctx.now,
      includeTestSales: testSalesCount(ctx.config),
    });
    // An unban may have queued the creator's held transfers.
    announceJobs();
    return result;
  },
});

export const adminCreateUser = defineProcedure({
  name: "adminCreateUser",
  access: "admin",
  input: adminCreateUserSchema,
  run: ({ input, user, ctx }) => createUserAsAdmin(ctx.db, { actorId: user.id, input, now: ctx.now }),
});

/** GET /api/admin/audit and the portal's Audit log: bans, unbans, user creation and refunds, newest first, a page at a time. */
export const adminAuditLog = defineProcedure({
  name: "adminAuditLog",
  access: "admin",
  input: auditQuerySchema,
  run: ({ input, ctx }) =>
    listAuditEntries(ctx.db, { before: input.cursor ? Number(input.cursor) : undefined, limit: input.limit ?? AUDIT_PAGE_SIZE }),
});

// What other features use of this one; they reach it only through this file.
export { recordAuditEntry, STRIPE_ACTOR, type AuditAction } from "~/features/admin/audit.server";
