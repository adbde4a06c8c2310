import { z } from "zod";
import {
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resetLinkSchema,
  resetPasswordSchema,
} from "~/features/accounts/schemas";
import { defineProcedure } from "~/infra/procedure.server";
import { forbidden, HttpError, tooManyRequests, unauthorized } from "~/infra/errors.server";
import { createUser, findUserByEmail, toPublicUser } from "~/features/accounts/users.server";
import { decoyHash, verifyPassword } from "~/features/accounts/passwords.server";
import { recordLoginFailure, releaseLoginAttempt, reserveLoginAttempt } from "~/features/accounts/login-throttle.server";
import { deleteApiToken } from "~/features/accounts/sessions.server";
import { tokenTestPrefill } from "~/features/accounts/token-test-prefill.server";
import { REGISTRATION_RATE_LIMIT, throttle, waitText } from "~/infra/rate-limit.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { queueMailWithinRecipientLimit } from "~/features/mail/procedures.server";
import {
  resetLink,
  resetPasswordWithToken,
  signResetToken,
  throttleResetRequest,
  verifyResetToken,
} from "~/features/accounts/password-reset.server";
import { renderResetPasswordMail } from "~/features/accounts/reset-password-mail.server";

export const INVALID_LOGIN = "Invalid email or password";

/**
 * Signs in with an email and password, for the sign-in form (which then starts
 * a cookie session) and POST /api/token-login (which answers a bearer token:
 * app/web/token-session.server.ts). The attempt is reserved (and counted) before
 * the password is checked, per email and client address, per address, and
 * with growing delays per email (login-throttle.server.ts); a failure stays
 * counted, a success does not.
 */
export const signIn = defineProcedure({
  name: "signIn",
  access: "public",
  input: loginSchema,
  async run({ input, ctx }) {
    const reserved = await reserveLoginAttempt(ctx.db, input.email, ctx.clientIp, ctx.now);
    if (!reserved.ok) {
      throw tooManyRequests(
        reserved.retryAfterSeconds,
        `Too many failed sign-in attempts. Try again in ${waitText(reserved.retryAfterSeconds)}.`,
      );
    }
    const { reservation } = reserved;
    let failed = false;
    try {
      const user = await findUserByEmail(ctx.db, input.email);
      const valid = await verifyPassword(input.password, user?.password_hash ?? (await decoyHash()));
      if (!user || !valid) {
        failed = true;
        await recordLoginFailure(ctx.db, reservation, ctx.now);
        throw unauthorized(INVALID_LOGIN);
      }
      if (user.banned) throw forbidden("This account has been suspended");
      return user;
    } finally {
      if (!failed) await releaseLoginAttempt(ctx.db, reservation);
    }
  },
});

/**
 * Creates an account, only while the operator has opened registration; limited
 * per client address. The form then starts a cookie session; POST /api/register
 * answers a bearer token.
 */
export const register = defineProcedure({
  name: "register",
  access: "public",
  input: registerSchema,
  async run({ input, ctx }) {
    if (ctx.config.REGISTRATION !== "open") throw forbidden("Registration is closed");
    throttle(ctx, REGISTRATION_RATE_LIMIT);
    return createUser(ctx.db, input, ctx.now);
  },
});

/** The answer to every accepted reset request, whether or not the email has an account. */
export const RESET_REQUESTED =
  "If an account uses that email, a link to reset its password is on its way. The link works once, within 60 minutes.";

class DecoyRollback extends Error {}

/**
 * Asks for a password reset link by email, for the /forgot-password form and
 * POST /api/forgot-password. Every accepted request answers the same and does
 * the same work: the throttles (per email and per client address, counted
 * for unknown emails too), the user lookup, a signed token, the rendered
 * message and its mail job inserted in a transaction. For a known account
 * that is not banned the transaction commits; otherwise it is rolled back,
 * so nothing is sent and nothing is kept, in about the same time.
 */
export const requestPasswordReset = defineProcedure({
  name: "requestPasswordReset",
  access: "public",
  input: forgotPasswordSchema,
  async run({ input, ctx }) {
    throttleResetRequest(input.email, ctx.clientIp, ctx.now);
    const user = await findUserByEmail(ctx.db, input.email);
    const account = user && !user.banned ? user : null;
    const token = signResetToken(
      ctx.config.appSecret,
      account ?? { id: "unknown", email: input.email, password_hash: "" },
      ctx.now,
    );
    const message = renderResetPasswordMail({ firstName: account?.first_name ?? "", link: resetLink(ctx.origin, token) });
    try {
      await ctx.db.transaction().execute(async (trx) => {
        // Counted toward the recipient's limit of mail anyone can trigger, for unknown emails too (the same work).
        await queueMailWithinRecipientLimit(trx, { to: input.email, ...message, now: ctx.now });
        if (!account) throw new DecoyRollback();
      });
    } catch (error) {
      if (!(error instanceof DecoyRollback)) throw error;
    }
    announceJobs();
    return { message: RESET_REQUESTED };
  },
});

/**
 * Sets a new password with a reset link's token, for the /reset-password form
 * and POST /api/reset-password; every web session and API token of the user
 * ends, and the link (and any other made before) stops working.
 */
export const resetPassword = defineProcedure({
  name: "resetPassword",
  access: "public",
  input: resetPasswordSchema,
  async run({ input, ctx }) {
    await resetPasswordWithToken(ctx.db, ctx.config.appSecret, input, ctx.now);
    return null;
  },
});

/** Whether a reset link still works, so the page can say so before a new password is typed. */
export const resetLinkStatus = defineProcedure({
  name: "resetLinkStatus",
  access: "public",
  input: resetLinkSchema,
  async run({ input, ctx }) {
    try {
      await verifyResetToken(ctx.db, ctx.config.appSecret, input.token, ctx.now);
      return { valid: true as const, message: null };
    } catch (error) {
      if (error instanceof HttpError && error.status === 400) return { valid: false as const, message: error.message };
      throw error;
    }
  },
});

/** What the sign-in screen offers: whether the operator has opened registration. */
export const signInOptions = defineProcedure({
  name: "signInOptions",
  access: "public",
  input: z.object({}),
  run: ({ ctx }) => ({ registrationOpen: ctx.config.REGISTRATION === "open" }),
});

/** What the /token-test developer page fills its sign-in form with (token-test-prefill.server.ts). */
export const tokenTestDefaults = defineProcedure({
  name: "tokenTestDefaults",
  access: "public",
  input: z.object({}),
  run: ({ ctx }) => tokenTestPrefill(ctx.db, ctx.config),
});

export const currentUser = defineProcedure({
  name: "currentUser",
  access: "user",
  input: z.object({}),
  run: ({ user }) => toPublicUser(user),
});

/** Ends the API token the call was made with (ctx.bearerToken). */
export const endTokenSession = defineProcedure({
  name: "endTokenSession",
  access: "user",
  input: z.object({}),
  async run({ ctx }) {
    if (ctx.bearerToken) await deleteApiToken(ctx.db, ctx.bearerToken);
    return null;
  },
});

// What other features use of this one; they reach it only through this file.
export { createUser, toPublicUser } from "~/features/accounts/users.server";
export { createApiToken, revokeAllCredentials } from "~/features/accounts/sessions.server";
