import { z } from "zod";
import path from "node:path";
import { accountOf } from "~/features/accounts/account.server";
import { accountPatchSchema, emailChangeSchema, emailChangeTokenSchema } from "~/features/accounts/profile-schemas";
import { updateProfile } from "~/features/accounts/profile.server";
import { NotAnAvatarImageError, storeAvatar } from "~/features/accounts/avatar.server";
import {
  assertEmailAvailable,
  confirmEmailChange as confirmEmailChangeWithToken,
  EMAIL_CHANGE_LINK_HOURS,
  emailChangeLink,
  findEmailChange,
  startEmailChange,
} from "~/features/accounts/email-change.server";
import { renderConfirmEmailChangeMail, renderEmailChangeNoticeMail } from "~/features/accounts/email-change-mail.server";
import { findUserById } from "~/features/accounts/users.server";
import { getFileStore } from "~/infra/file-store.server";
import { receiveFileUpload } from "~/infra/uploads/receive-upload.server";
import { sweepScratchSoon } from "~/infra/uploads/scratch-sweep.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import { INVALID_FILE_TYPE, MAX_UPLOAD_BYTES, UPLOAD_FIELD, UPLOAD_MESSAGES } from "~/lib/limits";
import {
  changePasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  invitationLinkSchema,
  invitedRegisterSchema,
  registrationLinkSchema,
  resetLinkSchema,
  waitlistEntrySchema,
  waitlistJoinSchema,
  resetPasswordSchema,
  sessionIdSchema,
} from "~/features/accounts/schemas";
import { defineProcedure } from "~/infra/procedure.server";
import { WRONG_PASSWORD } from "~/features/accounts/account-erasure.server";
import { badRequest, forbidden, HttpError, notFound, tooManyRequests, unauthorized, unsupportedMedia } from "~/infra/errors.server";
import { findUserByEmail, insertUser, toPublicUser } from "~/features/accounts/users.server";
import { decoyHash, hashPassword, verifyPassword } from "~/features/accounts/passwords.server";
import { assertAcceptableNewPassword, isCommonPassword } from "~/features/accounts/common-passwords.server";
import { openRegistration, registrationLink, sealRegistration } from "~/features/accounts/registration-links.server";
import { renderAlreadyRegisteredMail, renderCreateAccountMail } from "~/features/accounts/registration-mail.server";
import { recordLoginFailure, releaseLoginAttempt, reserveLoginAttempt } from "~/features/accounts/login-throttle.server";
import {
  type CallerCredentials,
  deleteApiToken,
  endOtherSessionsAndTokens,
  endSessionOrToken,
  listSessionsAndTokens,
} from "~/features/accounts/sessions.server";
import { COMMON_PASSWORD } from "~/lib/accounts";
import type { CallContext } from "~/infra/call-context.server";
import { tokenTestPrefill } from "~/features/accounts/token-test-prefill.server";
import { REGISTRATION_RATE_LIMIT, throttle, WAITLIST_RATE_LIMIT, waitText } from "~/infra/rate-limit.server";
import {
  addToWaitlist,
  betaSpotsLeft,
  findInvitation,
  invitationLink,
  inviteEntry,
  listWaitlist,
  registerWithInvitation,
  WAITLIST_ALREADY,
  WAITLIST_JOINED,
} from "~/features/accounts/waitlist.server";
import { renderInvitationMail, renderWaitlistJoinedMail } from "~/features/accounts/waitlist-mail.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { queueMail, queueMailWithinRecipientLimit } from "~/features/mail/procedures.server";
import { mailLinkOrigin } from "~/infra/configured-origin.server";
import {
  resetLink,
  resetPasswordWithToken,
  signResetToken,
  throttleResetRequest,
  verifyResetToken,
} from "~/features/accounts/password-reset.server";
import { renderResetPasswordMail } from "~/features/accounts/reset-password-mail.server";
import type { AccountExportView } from "~/features/accounts/account-export-types";
import {
  accountExportView,
  latestAccountExportOf,
  nextExportAllowedAt,
  ownAccountExport,
  startAccountExport,
} from "~/features/accounts/account-exports.server";

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

// ---- The beta's waitlist (waitlist.server.ts) ----

/**
 * The Register tab's waitlist form while registration is closed: records the
 * address once (limited per client address) and mails it a confirmation. A
 * second request for the same address changes nothing, sends nothing and says
 * it is on the list already; nothing more (an invitation, an account) is told.
 */
export const joinWaitlist = defineProcedure({
  name: "joinWaitlist",
  access: "public",
  input: waitlistJoinSchema,
  async run({ input, ctx }) {
    throttle(ctx, WAITLIST_RATE_LIMIT);
    const added = await ctx.db.transaction().execute(async (trx) => {
      const { added } = await addToWaitlist(trx, input.email, ctx.now);
      // Anyone can type any address here: the mail counts toward the recipient's limit of such mail.
      if (added) await queueMailWithinRecipientLimit(trx, { to: input.email, ...renderWaitlistJoinedMail(), now: ctx.now });
      return added;
    });
    if (added) announceJobs();
    return added ? { joined: true as const, message: WAITLIST_JOINED } : { joined: false as const, message: WAITLIST_ALREADY };
  },
});

/** The beta's figures the landing page shows: spots left (BETA_SPOTS set) and when the beta ends (BETA_ENDS_AT set). */
export const betaStatus = defineProcedure({
  name: "betaStatus",
  access: "public",
  input: z.object({}),
  async run({ ctx }) {
    return {
      spots: await betaSpotsLeft(ctx.db, ctx.config.BETA_SPOTS, ctx.now),
      endsAt: ctx.config.BETA_ENDS_AT ? new Date(ctx.config.BETA_ENDS_AT).toISOString() : null,
    };
  },
});

/** What the Register tab shows for an invitation's link: the address it opens registration for, or why it cannot. */
export const invitationStatus = defineProcedure({
  name: "invitationStatus",
  access: "public",
  input: invitationLinkSchema,
  async run({ input, ctx }) {
    try {
      const entry = await findInvitation(ctx.db, input.invite, ctx.now);
      return { valid: true as const, email: entry.email, message: null };
    } catch (error) {
      if (error instanceof HttpError && error.status === 400) return { valid: false as const, email: null, message: error.message };
      throw error;
    }
  },
});

/**
 * The Register tab opened by an invitation: creates the account for the
 * invitation's address (whatever REGISTRATION says) and spends the
 * invitation; the page then signs in. The mailed link proved the address,
 * so no second mail is needed. Limited per client address like registering.
 */
export const registerInvited = defineProcedure({
  name: "registerInvited",
  access: "public",
  input: invitedRegisterSchema,
  async run({ input, ctx }) {
    throttle(ctx, REGISTRATION_RATE_LIMIT);
    assertAcceptableNewPassword(input.password);
    await findInvitation(ctx.db, input.invite, ctx.now);
    const passwordHash = await hashPassword(input.password);
    return registerWithInvitation(ctx.db, { token: input.invite, firstName: input.firstName, lastName: input.lastName, passwordHash, now: ctx.now });
  },
});

/** The admin's Waitlist section: every request, oldest first, with its state, and the beta's spots when BETA_SPOTS is set. */
export const adminWaitlist = defineProcedure({
  name: "adminWaitlist",
  access: "admin",
  input: z.object({}),
  async run({ ctx }) {
    const [entries, spots] = await Promise.all([listWaitlist(ctx.db, ctx.now), betaSpotsLeft(ctx.db, ctx.config.BETA_SPOTS, ctx.now)]);
    return { entries, spots };
  },
});

/**
 * The admin's Invite (or Invite again) on a waitlist entry: mails the address
 * a link that opens registration for it, once, within 7 days; a newer
 * invitation replaces an older one. 409 when the address has an account, or
 * every BETA_SPOTS spot is taken.
 */
export const inviteFromWaitlist = defineProcedure({
  name: "inviteFromWaitlist",
  access: "admin",
  input: waitlistEntrySchema,
  async run({ input, user, ctx }) {
    const origin = mailLinkOrigin(ctx.config, "An invitation mail");
    if (!origin) throw new HttpError(409, "Invitations need PUBLIC_URL: their links are built only from it.");
    const invitation = await ctx.db.transaction().execute(async (trx) => {
      const made = await inviteEntry(trx, { entryId: input.entryId, adminId: user.id, spots: ctx.config.BETA_SPOTS, now: ctx.now });
      await queueMail(trx, { to: made.email, ...renderInvitationMail({ link: invitationLink(origin, made.token) }), now: ctx.now });
      return made;
    });
    announceJobs();
    return { email: invitation.email, expiresAt: invitation.expiresAt };
  },
});

// ---- end of the waitlist ----

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

// ---- Security: the password change, and the user's web sessions and API tokens ----

export const WRONG_CURRENT_PASSWORD = "The current password is not correct";

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
 * Changes the password, for the Security tab and POST /api/account/password:
 * the new one follows the new-password rules, the current one must be right
 * (a wrong one counts toward the sign-in limits of the account's email, so a
 * stolen session cannot guess on without end). Then every other web session
 * and API token of the user ends; the one making the change keeps working.
 * A refused change changes nothing.
 */
export const changePassword = defineProcedure({
  name: "changePassword",
  access: "user",
  input: changePasswordSchema,
  async run({ input, user, ctx }) {
    if (isCommonPassword(input.newPassword)) throw badRequest(COMMON_PASSWORD, { newPassword: [COMMON_PASSWORD] });
    const reserved = await reserveLoginAttempt(ctx.db, user.email, ctx.clientIp, ctx.now);
    if (!reserved.ok) {
      throw tooManyRequests(
        reserved.retryAfterSeconds,
        `Too many wrong passwords. Try again in ${waitText(reserved.retryAfterSeconds)}.`,
      );
    }
    const { reservation } = reserved;
    let failed = false;
    try {
      if (!(await verifyPassword(input.currentPassword, user.password_hash))) {
        failed = true;
        await recordLoginFailure(ctx.db, reservation, ctx.now);
        throw badRequest(WRONG_CURRENT_PASSWORD, { currentPassword: [WRONG_CURRENT_PASSWORD] });
      }
    } finally {
      if (!failed) await releaseLoginAttempt(ctx.db, reservation);
    }
    const passwordHash = await hashPassword(input.newPassword);
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("users")
        .set({ password_hash: passwordHash, updated_at: ctx.now.toISOString() })
        .where("id", "=", user.id)
        .execute();
      await endOtherSessionsAndTokens(trx, user.id, callerCredentials(ctx));
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
    listSessionsAndTokens(ctx.db, user.id, callerCredentials(ctx), ctx.now, ctx.config.SESSION_IDLE_DAYS),
});

export const NO_SUCH_SESSION = "No such session or token";

/**
 * Ends one of the user's web sessions or API tokens (DELETE
 * /api/account/sessions/{id}, Revoke on the Security tab): it answers 401, or
 * goes to sign-in, from its next request. 404 for an id that is not the
 * user's. Answers whether it was the one the call was made with (the screen
 * then signs out).
 */
export const revokeSession = defineProcedure({
  name: "revokeSession",
  access: "user",
  input: sessionIdSchema,
  async run({ input, user, ctx }) {
    const ended = await endSessionOrToken(ctx.db, user.id, input.id, callerCredentials(ctx));
    if (!ended) throw notFound(NO_SUCH_SESSION);
    return { current: ended.current };
  },
});

/** "Sign out everywhere else": ends every web session and API token of the user but the one making the call. */
export const signOutEverywhereElse = defineProcedure({
  name: "signOutEverywhereElse",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    await endOtherSessionsAndTokens(ctx.db, user.id, callerCredentials(ctx));
    return null;
  },
});

// ---- end of Security ----
// The Profile tab and /api/account: the account, profile, photo and email change.

/** GET /api/account and the settings: the caller's own account. */
export const account = defineProcedure({
  name: "account",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => accountOf(ctx.db, user, ctx.now),
});

/**
 * PATCH /api/account and the Profile tab's form: names, the public handle and
 * the bio (the fields given; the others stay). A handle another account has
 * is a 409 that changes nothing.
 */
export const updateAccount = defineProcedure({
  name: "updateAccount",
  access: "user",
  input: accountPatchSchema,
  async run({ input, user, ctx }) {
    const updated = await updateProfile(ctx.db, user, input, ctx.now);
    return accountOf(ctx.db, updated, ctx.now);
  },
});

/**
 * POST /api/account/avatar and the Profile tab's photo form: streams the
 * multipart body (ctx.upload) to the data volume under the uploads' limit
 * (413 past it, 415 for bytes that are not an image), then stores a square
 * photo without metadata (avatar.server.ts) and answers the account.
 */
export const uploadAvatar = defineProcedure({
  name: "uploadAvatar",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    const store = getFileStore();
    sweepScratchSoon(path.join(store.root, "tmp"));
    if (!ctx.upload) throw new Error("uploadAvatar is called with the request body (ctx.upload)");
    const upload = await receiveFileUpload(ctx.upload, {
      field: UPLOAD_FIELD,
      maxFileBytes: MAX_UPLOAD_BYTES,
      scratchPath: () => store.scratchPath(),
      messages: UPLOAD_MESSAGES,
      admit: () => ensureFreeSpace(ctx.config),
    });
    try {
      await storeAvatar(ctx.db, store, { userId: user.id, sourcePath: upload.path, now: ctx.now });
    } catch (error) {
      if (error instanceof NotAnAvatarImageError) throw unsupportedMedia(INVALID_FILE_TYPE.description);
      throw error;
    }
    const updated = await findUserById(ctx.db, user.id);
    if (!updated) throw unauthorized();
    return accountOf(ctx.db, updated, ctx.now);
  },
});

export const EMAIL_CHANGE_REQUESTED = `We sent a link to the new address. Your email changes when you open it (within ${EMAIL_CHANGE_LINK_HOURS} hours).`;

/**
 * POST /api/account/email and the Profile tab's email form: with the current
 * password (400 when wrong), to an address no account uses (409), mails the
 * new address a link that makes the change and the old one a notice. Nothing
 * changes until the link is used (confirmEmailChange).
 */
export const requestEmailChange = defineProcedure({
  name: "requestEmailChange",
  access: "user",
  input: emailChangeSchema,
  async run({ input, user, ctx }) {
    if (!(await verifyPassword(input.password, user.password_hash))) {
      throw badRequest(WRONG_PASSWORD, { password: [WRONG_PASSWORD] });
    }
    await assertEmailAvailable(ctx.db, user, input.email);
    const origin = mailLinkOrigin(ctx.config, "An email change mail");
    if (!origin) return { message: EMAIL_CHANGE_REQUESTED };
    await ctx.db.transaction().execute(async (trx) => {
      const token = await startEmailChange(trx, user, input.email, ctx.now);
      const confirm = renderConfirmEmailChangeMail({ firstName: user.first_name, newEmail: input.email, link: emailChangeLink(origin, token) });
      // The new address is typed by the caller: it counts toward that recipient's limit of such mail.
      await queueMailWithinRecipientLimit(trx, { to: input.email, ...confirm, now: ctx.now });
      const notice = renderEmailChangeNoticeMail({
        firstName: user.first_name,
        newEmail: input.email,
        settingsLink: `${origin}/settings`,
        resetLink: `${origin}/forgot-password`,
      });
      await queueMail(trx, { to: user.email, ...notice, now: ctx.now });
    });
    announceJobs();
    return { message: EMAIL_CHANGE_REQUESTED };
  },
});

/** What the mailed link's page shows before its button is pressed: the address it sets, or why it cannot. */
export const emailChangeLinkStatus = defineProcedure({
  name: "emailChangeLinkStatus",
  access: "user",
  input: emailChangeTokenSchema,
  async run({ input, user, ctx }) {
    try {
      const change = await findEmailChange(ctx.db, user, input.token, ctx.now);
      return { valid: true as const, newEmail: change.new_email, message: null };
    } catch (error) {
      if (error instanceof HttpError && error.status === 400) return { valid: false as const, newEmail: null, message: error.message };
      throw error;
    }
  },
});

/**
 * POST /api/account/email/confirm and the link's Confirm button: the signed-in
 * owner's unused link, within its 24 hours, sets the new address (400
 * otherwise; 409 when another account took the address meanwhile).
 */
export const confirmEmailChange = defineProcedure({
  name: "confirmEmailChange",
  access: "user",
  input: emailChangeTokenSchema,
  async run({ input, user, ctx }) {
    const updated = await confirmEmailChangeWithToken(ctx.db, user, input.token, ctx.now);
    return accountOf(ctx.db, updated, ctx.now);
  },
});

// What other features use of this one; they reach it only through this file.
export { createUser, toPublicUser } from "~/features/accounts/users.server";
export { createApiToken, endAllSessionsAndTokens, revokeAllCredentials } from "~/features/accounts/sessions.server";
export { accountOf } from "~/features/accounts/account.server";

// The creator's export of their own data (account-exports.server.ts; the zip is built by account-export-job.server.ts).

/**
 * POST /api/account/export and the Your data tab's button: asks for an export
 * of the caller's data and answers it (202 on the API); while one is pending,
 * the same export. One an hour (429 with Retry-After otherwise).
 */
export const requestAccountExport = defineProcedure({
  name: "requestAccountExport",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }): Promise<AccountExportView> {
    const row = await startAccountExport(ctx.db, user.id, ctx.now);
    announceJobs();
    return accountExportView(row, ctx.now, ctx.origin);
  },
});

/** GET /api/account/export/{id}: one of the caller's exports, with its download link while it works; 404 for another's. */
export const accountExport = defineProcedure({
  name: "accountExport",
  access: "user",
  input: z.object({ id: z.string().min(1, "Required").max(64, "Not an export id") }),
  async run({ input, user, ctx }): Promise<AccountExportView> {
    return accountExportView(await ownAccountExport(ctx.db, user.id, input.id), ctx.now, ctx.origin);
  },
});

/** The Your data tab: the caller's latest export (or none) and when they may ask for a new one. */
export const accountExportScreen = defineProcedure({
  name: "accountExportScreen",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }): Promise<{ latest: AccountExportView | null; nextAllowedAt: string | null }> {
    const [latest, nextAllowedAt] = await Promise.all([
      latestAccountExportOf(ctx.db, user.id),
      nextExportAllowedAt(ctx.db, user.id, ctx.now),
    ]);
    return { latest: latest ? accountExportView(latest, ctx.now, ctx.origin) : null, nextAllowedAt };
  },
});
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
