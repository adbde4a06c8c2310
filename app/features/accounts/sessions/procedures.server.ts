import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { forbidden, HttpError } from "~/infra/errors.server";
import { REGISTRATION_RATE_LIMIT, throttle } from "~/infra/rate-limit.server";
import { loginSchema, registerSchema, registrationLinkSchema } from "~/features/accounts/schemas";
import { signInWithPassword } from "~/features/accounts/sessions/sign-in.server";
import { requestRegistration } from "~/features/accounts/registration/registration-request.server";
import {
  assertLinkWaiting,
  openRegistration,
} from "~/features/accounts/registration/registration-links.server";
import {
  createAccountFromLink,
  REGISTRATION_CLOSED,
} from "~/features/accounts/registration/registration-confirm.server";
import { toPublicUser } from "~/features/accounts/users.server";
import { deleteApiToken } from "~/features/accounts/sessions/sessions.server";
import { tokenTestPrefill } from "~/features/accounts/sessions/token-test-prefill.server";
import { waitingInvitationOf } from "~/features/accounts/registration/waitlist.server";

export { INVALID_LOGIN } from "~/features/accounts/sessions/sign-in.server";

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
  run: ({ input, ctx }) =>
    signInWithPassword(ctx.db, {
      email: input.email,
      password: input.password,
      clientIp: ctx.clientIp,
      now: ctx.now,
    }),
});

/** The answer to every accepted registration, whether or not the email has an account. */
export const REGISTRATION_REQUESTED =
  "Almost done: please check your email. We sent that address a message with the next step; the account is created when you open its link (within 24 hours).";

/**
 * Registers, only while the operator has opened registration; limited per
 * client address. Every accepted registration answers the same and does the
 * same work (registration-request.server.ts), so the answer tells nothing
 * about which emails have accounts. Nobody is signed in here: the link's
 * page creates the account and signs in (confirmRegistration).
 */
export const register = defineProcedure({
  name: "register",
  access: "public",
  input: registerSchema,
  async run({ input, ctx }) {
    if (ctx.config.REGISTRATION !== "open") throw forbidden("Registration is closed");
    await throttle(ctx, REGISTRATION_RATE_LIMIT);
    await requestRegistration(ctx.db, ctx.config, input, ctx.now);
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
      const registration = openRegistration(ctx.config.appSecret, input.token, ctx.now);
      await assertLinkWaiting(ctx.db, registration);
      if (
        ctx.config.REGISTRATION !== "open" &&
        !(await waitingInvitationOf(ctx.db, registration.email, ctx.now))
      )
        throw forbidden(REGISTRATION_CLOSED);
      const { email, firstName } = registration;
      return { valid: true as const, email, firstName, message: null };
    } catch (error) {
      if (error instanceof HttpError && (error.status === 400 || error.status === 403))
        return { valid: false as const, email: null, firstName: null, message: error.message };
      throw error;
    }
  },
});

/**
 * The mailed link's button: creates the account the link carries, once (400
 * for a used link; 403 once registration closed, unless the address holds a
 * waiting invitation; 409 when the address has an account by now:
 * registration-confirm.server.ts); the page then signs in.
 */
export const confirmRegistration = defineProcedure({
  name: "confirmRegistration",
  access: "public",
  input: registrationLinkSchema,
  run: ({ input, ctx }) => createAccountFromLink(ctx.db, ctx.config, input.token, ctx.now),
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

/** GET /api/token-user: the signed-in caller. */
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
