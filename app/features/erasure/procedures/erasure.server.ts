import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { assertOwnPassword } from "~/features/accounts/public.server";
import { beginErasure } from "~/features/erasure/erase-account.server";
import { eraseMyAccountSchema } from "~/features/erasure/schemas";

/**
 * Account erasure, by the person (Settings' Delete account, DELETE
 * /api/account, with their password) or by the super admin for anyone but
 * themselves (the portal's user details, DELETE /api/admin/users/{userId}).
 * Both answer at once: the account is closed; a job deletes the rest
 * (erase-account.server.ts, erasure-job.server.ts).
 */

export const eraseMyAccount = defineProcedure({
  name: "eraseMyAccount",
  access: "user",
  input: eraseMyAccountSchema,
  async run({ input, user, ctx }) {
    // A wrong password is a 400 and changes nothing; it counts toward the sign-in limits (429 past them).
    await assertOwnPassword(ctx.db, {
      userId: user.id,
      password: input.password,
      clientIp: ctx.clientIp,
      now: ctx.now,
    });
    const started = await beginErasure(ctx.db, { actorId: user.id, userId: user.id, now: ctx.now });
    announceJobs();
    return started;
  },
});

export const eraseUser = defineProcedure({
  name: "eraseUser",
  access: "admin",
  input: z.object({ userId: z.string().trim().min(1).max(200) }),
  async run({ input, user, ctx }) {
    const started = await beginErasure(ctx.db, {
      actorId: user.id,
      userId: input.userId,
      now: ctx.now,
    });
    announceJobs();
    return started;
  },
});
