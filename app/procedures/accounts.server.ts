import { z } from "zod";
import { loginSchema, registerSchema } from "~/lib/auth-schemas";
import { defineProcedure } from "~/server/procedure.server";
import { forbidden, tooManyRequests, unauthorized } from "~/server/errors.server";
import { createUser, findUserByEmail, toPublicUser } from "~/services/users.server";
import { decoyHash, verifyPassword } from "~/services/passwords.server";
import { loginRetryAfter, recordLoginFailure } from "~/services/login-throttle.server";
import { createApiToken, deleteApiToken } from "~/services/sessions.server";
import { bearerTokenOf } from "~/server/auth.server";

export const INVALID_LOGIN = "Invalid email or password";

/** Checks an email and password; throttled per email and per client address. */
export const verifyLogin = defineProcedure({
  name: "verifyLogin",
  access: "public",
  input: loginSchema,
  async run({ input, ctx }) {
    const wait = await loginRetryAfter(ctx.db, input.email, ctx.clientIp, ctx.now);
    if (wait > 0) {
      const minutes = Math.ceil(wait / 60);
      throw tooManyRequests(
        wait,
        `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      );
    }
    const user = await findUserByEmail(ctx.db, input.email);
    const valid = await verifyPassword(input.password, user?.password_hash ?? (await decoyHash()));
    if (!user || !valid) {
      await recordLoginFailure(ctx.db, input.email, ctx.clientIp, ctx.now);
      throw unauthorized(INVALID_LOGIN);
    }
    if (user.banned) throw forbidden("This account has been suspended");
    return user;
  },
});

/** Creates an account, only while the operator has opened registration. */
export const register = defineProcedure({
  name: "register",
  access: "public",
  input: registerSchema,
  async run({ input, ctx }) {
    if (ctx.config.REGISTRATION !== "open") throw forbidden("Registration is closed");
    return createUser(ctx.db, input, ctx.now);
  },
});

export const currentUser = defineProcedure({
  name: "currentUser",
  access: "user",
  input: z.object({}),
  run: ({ user }) => toPublicUser(user),
});

/** Ends the API token the request was made with. */
export const endTokenSession = defineProcedure({
  name: "endTokenSession",
  access: "user",
  input: z.object({}),
  async run({ ctx }) {
    const token = bearerTokenOf(ctx.request);
    if (token) await deleteApiToken(ctx.db, token);
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
