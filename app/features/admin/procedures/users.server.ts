import { z } from "zod";
import { adminCreateUserSchema, adminUserSearchSchema } from "~/features/admin/schemas";
import { defineProcedure } from "~/infra/procedure.server";
import { notFound } from "~/infra/errors.server";
import { testSalesCount } from "~/infra/payments/select-provider.server";
import { findUserForAdmin, listUsersForAdmin } from "~/features/admin/users.server";
import { createUserAsAdmin } from "~/features/admin/create-user.server";

/**
 * The Admin Portal's operations serve both the /admin screen and its
 * /api/admin route; only the super admin may call them (401 signed out, 403
 * anyone else). On a production server, sales in the built-in test checkout
 * are not revenue (testSalesCount).
 */

// The users: the list, one user's details, and creating an account.

export const adminUsers = defineProcedure({
  name: "adminUsers",
  access: "admin",
  input: adminUserSearchSchema,
  run: ({ input, ctx }) =>
    listUsersForAdmin(ctx.db, { q: input.q, includeTestSales: testSalesCount(ctx.config) }),
});

export const adminUser = defineProcedure({
  name: "adminUser",
  access: "admin",
  input: z.object({ userId: z.string().trim().min(1).max(200) }),
  async run({ input, ctx }) {
    const user = await findUserForAdmin(ctx.db, input.userId, {
      includeTestSales: testSalesCount(ctx.config),
    });
    if (!user) throw notFound("User not found");
    return user;
  },
});

export const adminCreateUser = defineProcedure({
  name: "adminCreateUser",
  access: "admin",
  input: adminCreateUserSchema,
  run: ({ input, user, ctx }) =>
    createUserAsAdmin(ctx.db, { actorId: user.id, input, now: ctx.now }),
});
