import { z } from "zod";
import { loginSchema, registerSchema } from "~/lib/auth-schemas";
import { defineProcedure } from "~/infra/procedure.server";
import { forbidden, tooManyRequests, unauthorized } from "~/infra/errors.server";
import { createUser, findUserByEmail, toPublicUser } from "~/services/users.server";
import { decoyHash, verifyPassword } from "~/services/passwords.server";
import { recordLoginFailure, releaseLoginAttempt, reserveLoginAttempt } from "~/services/login-throttle.server";
import { createApiToken, deleteApiToken } from "~/services/sessions.server";
import { REGISTRATION_RATE_LIMIT, throttle, waitText } from "~/infra/rate-limit.server";

export const INVALID_LOGIN = "Invalid email or password";

/**
 * Checks an email and password. The attempt is reserved (and counted) before
 * the password is checked, per email and client address, per address, and
 * with growing delays per email (login-throttle.server.ts); a failure stays
 * counted, a success does not.
 */
export const verifyLogin = defineProcedure({
  name: "verifyLogin",
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

/** Creates an account, only while the operator has opened registration; limited per client address. */
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

export interface TokenSession {
  token: string;
  user: ReturnType<typeof toPublicUser>;
}

/** POST /api/token-login: the credentials for a bearer token. */
export const tokenLogin = defineProcedure({
  name: "tokenLogin",
  access: "public",
  input: loginSchema,
  async run(args): Promise<TokenSession> {
    const user = await verifyLogin.run(args);
    const { token } = await createApiToken(args.ctx.db, user.id, args.ctx.config.TOKEN_DAYS, args.ctx.now);
    return { token, user: toPublicUser(user) };
  },
});

/** POST /api/register: a new account and its first bearer token. */
export const tokenRegister = defineProcedure({
  name: "tokenRegister",
  access: "public",
  input: registerSchema,
  async run(args): Promise<TokenSession> {
    const user = await register.run(args);
    const { token } = await createApiToken(args.ctx.db, user.id, args.ctx.config.TOKEN_DAYS, args.ctx.now);
    return { token, user: toPublicUser(user) };
  },
});
