import { defineProcedure } from "~/infra/procedure.server";
import { HttpError } from "~/infra/errors.server";
import {
  forgotPasswordSchema,
  resetLinkSchema,
  resetPasswordSchema,
} from "~/features/accounts/schemas";
import {
  resetPasswordWithToken,
  throttleResetRequest,
  verifyResetToken,
} from "~/features/accounts/passwords/password-reset.server";
import { mailPasswordResetLink } from "~/features/accounts/passwords/password-reset-request.server";

/** The answer to every accepted reset request, whether or not the email has an account. */
export const RESET_REQUESTED =
  "If an account uses that email, a link to reset its password is on its way. The link works once, within 60 minutes.";

/**
 * Asks for a password reset link by email, for the /forgot-password form and
 * POST /api/forgot-password. Every accepted request answers the same and does
 * the same work: the throttles (per email and per client address, counted
 * for unknown emails too), then the link's mail, kept only for a known
 * account that is not banned (password-reset-request.server.ts).
 */
export const requestPasswordReset = defineProcedure({
  name: "requestPasswordReset",
  access: "public",
  input: forgotPasswordSchema,
  async run({ input, ctx }) {
    await throttleResetRequest(ctx, input.email);
    await mailPasswordResetLink(ctx.db, ctx.config, input.email, ctx.now);
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
      if (error instanceof HttpError && error.status === 400)
        return { valid: false as const, message: error.message };
      throw error;
    }
  },
});
