import { z } from "zod";
import { loginSchema, registerSchema } from "~/features/accounts/schemas";
import { defineProcedure } from "~/infra/procedure.server";
import { forbidden, tooManyRequests, unauthorized } from "~/infra/errors.server";
import { createUser, findUserByEmail, toPublicUser } from "~/features/accounts/users.server";
import { decoyHash, verifyPassword } from "~/features/accounts/passwords.server";
import { recordLoginFailure, releaseLoginAttempt, reserveLoginAttempt } from "~/features/accounts/login-throttle.server";
import { deleteApiToken } from "~/features/accounts/sessions.server";
import { tokenTestPrefill } from "~/features/accounts/token-test-prefill.server";
import { REGISTRATION_RATE_LIMIT, throttle, waitText } from "~/infra/rate-limit.server";

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
