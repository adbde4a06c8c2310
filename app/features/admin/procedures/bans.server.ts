import { userStatusSchema } from "~/features/admin/schemas";
import { defineProcedure } from "~/infra/procedure.server";
import { testSalesCount } from "~/infra/payments/select-provider.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { setUserStatus } from "~/features/admin/user-status.server";

/**
 * The Admin Portal's operations serve both the /admin screen and its
 * /api/admin route; only the super admin may call them (401 signed out, 403
 * anyone else). On a production server, sales in the built-in test checkout
 * are not revenue (testSalesCount).
 */

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
