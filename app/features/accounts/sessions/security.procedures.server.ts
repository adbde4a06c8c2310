import { z } from "zod";
import type { CallContext } from "~/infra/call-context.server";
import { defineProcedure } from "~/infra/procedure.server";
import { notFound } from "~/infra/errors.server";
import { changePasswordSchema, sessionIdSchema } from "~/features/accounts/schemas";
import { changeOwnPassword } from "~/features/accounts/passwords/password-change.server";
import { recordAuditEntry } from "~/features/audit/public.server";
import {
  type CallerCredentials,
  endOtherSessionsAndTokens,
  endSessionOrToken,
  listSessionsAndTokens,
} from "~/features/accounts/sessions/sessions.server";

// Security: the password change, and the user's web sessions and API tokens.

export { WRONG_CURRENT_PASSWORD } from "~/features/accounts/passwords/password-change.server";

/**
 * The secrets the call was made with: the cookie's session when the call was
 * signed in by cookie, else the bearer token (the API's adapter hands over no
 * session secret for a bearer call).
 */
function callerCredentials(ctx: CallContext): CallerCredentials {
  return ctx.webSessionSecret
    ? { webSessionSecret: ctx.webSessionSecret, bearerToken: null }
    : { webSessionSecret: null, bearerToken: ctx.bearerToken };
}

/**
 * Changes the password, for the Security tab and POST /api/account/password
 * (password-change.server.ts): the current one must be right, and every other
 * web session and API token of the user ends; the one making the change keeps
 * working. A refused change changes nothing.
 */
export const changePassword = defineProcedure({
  name: "changePassword",
  access: "user",
  input: changePasswordSchema,
  async run({ input, user, ctx }) {
    await changeOwnPassword(ctx.db, user, {
      currentPassword: input.currentPassword,
      newPassword: input.newPassword,
      caller: callerCredentials(ctx),
      clientIp: ctx.clientIp,
      now: ctx.now,
    });
    return null;
  },
});

/** The user's web sessions and API tokens that still work, the current one marked (GET /api/account/sessions, the Security tab). */
export const mySessions = defineProcedure({
  name: "mySessions",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) =>
    listSessionsAndTokens(
      ctx.db,
      user.id,
      callerCredentials(ctx),
      ctx.now,
      ctx.config.SESSION_IDLE_DAYS,
    ),
});

export const NO_SUCH_SESSION = "No such session or token";

/**
 * Ends one of the user's web sessions or API tokens (DELETE
 * /api/account/sessions/{id}, Revoke on the Security tab): it answers 401, or
 * goes to sign-in, from its next request. 404 for an id that is not the
 * user's. Answers whether it was the one the call was made with (the screen
 * then signs out). The audit log records it (and "Sign out everywhere else").
 */
export const revokeSession = defineProcedure({
  name: "revokeSession",
  access: "user",
  input: sessionIdSchema,
  async run({ input, user, ctx }) {
    return ctx.db.transaction().execute(async (trx) => {
      const ended = await endSessionOrToken(trx, user.id, input.id, callerCredentials(ctx));
      if (!ended) throw notFound(NO_SUCH_SESSION);
      await recordAuditEntry(trx, {
        actorId: user.id,
        action: "user.session_revoke",
        subjectId: user.id,
        detail: { kind: ended.kind },
        now: ctx.now,
      });
      return { current: ended.current };
    });
  },
});

/** "Sign out everywhere else": ends every web session and API token of the user but the one making the call. */
export const signOutEverywhereElse = defineProcedure({
  name: "signOutEverywhereElse",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    await ctx.db.transaction().execute(async (trx) => {
      await endOtherSessionsAndTokens(trx, user.id, callerCredentials(ctx));
      await recordAuditEntry(trx, {
        actorId: user.id,
        action: "user.sign_out_elsewhere",
        subjectId: user.id,
        now: ctx.now,
      });
    });
    return null;
  },
});
