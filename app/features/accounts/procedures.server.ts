import { z } from "zod";
import {
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  registrationLinkSchema,
  resetLinkSchema,
  resetPasswordSchema,
} from "~/features/accounts/schemas";
import { defineProcedure } from "~/infra/procedure.server";
import { forbidden, HttpError, tooManyRequests, unauthorized } from "~/infra/errors.server";
import { findUserByEmail, insertUser, toPublicUser } from "~/features/accounts/users.server";
import { decoyHash, hashPassword, verifyPassword } from "~/features/accounts/passwords.server";
import { assertAcceptableNewPassword } from "~/features/accounts/common-passwords.server";
import { openRegistration, registrationLink, sealRegistration } from "~/features/accounts/registration-links.server";
import { renderAlreadyRegisteredMail, renderCreateAccountMail } from "~/features/accounts/registration-mail.server";
import { recordLoginFailure, releaseLoginAttempt, reserveLoginAttempt } from "~/features/accounts/login-throttle.server";
import { deleteApiToken } from "~/features/accounts/sessions.server";
import { tokenTestPrefill } from "~/features/accounts/token-test-prefill.server";
import { REGISTRATION_RATE_LIMIT, throttle, waitText } from "~/infra/rate-limit.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { queueMailWithinRecipientLimit } from "~/features/mail/procedures.server";
import { mailLinkOrigin } from "~/infra/configured-origin.server";
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

/** The answer to every accepted registration, whether or not the email has an account. */
export const REGISTRATION_REQUESTED =
  "Almost done: please check your email. We sent that address a message with the next step; the account is created when you open its link (within 24 hours).";

/**
 * Registers, only while the operator has opened registration; limited per
 * client address. Every accepted registration answers the same and does the
 * same work (the password rules, one scrypt hash, one mail queued), so the
 * answer tells nothing about which emails have accounts: a new email is
 * mailed a link that creates the account (registration-links.server.ts), an
 * email that has an account is mailed a notice that someone tried, with the
 * ways to sign in or reset the password. Nobody is signed in here: the link's
 * page creates the account and signs in (confirmRegistration).
 */
export const register = defineProcedure({
  name: "register",
  access: "public",
  input: registerSchema,
  async run({ input, ctx }) {
    if (ctx.config.REGISTRATION !== "open") throw forbidden("Registration is closed");
    throttle(ctx, REGISTRATION_RATE_LIMIT);
    assertAcceptableNewPassword(input.password);
    const passwordHash = await hashPassword(input.password);
    const existing = await findUserByEmail(ctx.db, input.email);
    const origin = mailLinkOrigin(ctx.config, "A registration mail");
    if (!origin) return { message: REGISTRATION_REQUESTED };
    const message = existing
      ? renderAlreadyRegisteredMail({
          firstName: existing.first_name,
          signInLink: `${origin}/auth`,
          resetLink: `${origin}/forgot-password`,
        })
      : renderCreateAccountMail({
          firstName: input.firstName,
          link: registrationLink(
            origin,
            sealRegistration(ctx.config.appSecret, { email: input.email, firstName: input.firstName, lastName: input.lastName, passwordHash }, ctx.now),
          ),
        });
    // Anyone can type any address here: the mail counts toward the recipient's limit of such mail.
    await queueMailWithinRecipientLimit(ctx.db, { to: existing?.email ?? input.email, ...message, now: ctx.now });
    announceJobs();
    return { message: REGISTRATION_REQUESTED };
  },
});

/** What the mailed link's page shows before its button is pressed: whose account it creates, or why it cannot. */
export const registrationLinkStatus = defineProcedure({
  name: "registrationLinkStatus",
  access: "public",
  input: registrationLinkSchema,
  async run({ input, ctx }) {
    try {
      const { email, firstName } = openRegistration(ctx.config.appSecret, input.token, ctx.now);
      return { valid: true as const, email, firstName, message: null };
    } catch (error) {
      if (error instanceof HttpError && error.status === 400) return { valid: false as const, email: null, firstName: null, message: error.message };
      throw error;
    }
  },
});

/** The mailed link's button: creates the account the link carries (409 once it exists); the page then signs in. */
export const confirmRegistration = defineProcedure({
  name: "confirmRegistration",
  access: "public",
  input: registrationLinkSchema,
  async run({ input, ctx }) {
    const registration = openRegistration(ctx.config.appSecret, input.token, ctx.now);
    return insertUser(ctx.db, registration, ctx.now);
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
    const origin = mailLinkOrigin(ctx.config, "A password reset mail");
    if (!origin) return { message: RESET_REQUESTED };
    const message = renderResetPasswordMail({ firstName: account?.first_name ?? "", link: resetLink(origin, token) });
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
export {
  assertOwnPassword,
  closeAccountForErasure,
  erasedEmail,
  ERASED_FIRST_NAME,
  ERASED_LAST_NAME,
  SUPER_ADMIN_NOT_ERASABLE,
  WRONG_PASSWORD,
  type ClosedAccount,
} from "~/features/accounts/account-erasure.server";
