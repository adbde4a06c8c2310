import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { HttpError, unauthorized } from "~/infra/errors.server";
import { accountOf } from "~/features/accounts/account.server";
import {
  accountPatchSchema,
  emailChangeSchema,
  emailChangeTokenSchema,
} from "~/features/accounts/profile/profile-schemas";
import { updateProfile } from "~/features/accounts/profile/profile.server";
import { receiveAvatarUpload } from "~/features/accounts/profile/avatar-upload.server";
import {
  confirmEmailChange as confirmEmailChangeWithToken,
  EMAIL_CHANGE_LINK_HOURS,
  findEmailChange,
} from "~/features/accounts/profile/email-change.server";
import { mailEmailChangeLink } from "~/features/accounts/profile/email-change-request.server";
import { findUserById } from "~/features/accounts/users.server";
import { currentFaceConsentVersion } from "~/features/privacy/public.server";
import "~/features/accounts/ties.server";

// The Profile tab and /api/account: the account, profile, photo and email change.

/** GET /api/account and the settings: the caller's own account, with the count of its confirmed followers. */
export const account = defineProcedure({
  name: "account",
  access: "user",
  input: z.object({}),
  run: async ({ user, ctx }) => ({
    ...(await accountOf(ctx.db, user, ctx.now, currentFaceConsentVersion(ctx.config))),
    followers: await ctx.ties.accounts.followerCount(ctx, user.id),
  }),
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
    return accountOf(ctx.db, updated, ctx.now, currentFaceConsentVersion(ctx.config));
  },
});

/**
 * POST /api/account/avatar and the Profile tab's photo form: streams the
 * multipart body (ctx.upload) to the data volume under the uploads' limit
 * (413 past it, 415 for bytes that are not an image), then stores a square
 * photo without metadata (avatar-upload.server.ts) and answers the account.
 */
export const uploadAvatar = defineProcedure({
  name: "uploadAvatar",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    if (!ctx.upload) throw new Error("uploadAvatar is called with the request body (ctx.upload)");
    await receiveAvatarUpload(ctx.db, ctx.files, ctx.config, {
      userId: user.id,
      upload: ctx.upload,
      now: ctx.now,
    });
    const updated = await findUserById(ctx.db, user.id);
    if (!updated) throw unauthorized();
    return accountOf(ctx.db, updated, ctx.now, currentFaceConsentVersion(ctx.config));
  },
});

export const EMAIL_CHANGE_REQUESTED = `We sent a link to the new address. Your email changes when you open it (within ${EMAIL_CHANGE_LINK_HOURS} hours).`;

/**
 * POST /api/account/email and the Profile tab's email form: with the current
 * password (400 when wrong; counted by the sign-in throttle), mails the new
 * address a link that makes the change and the old one a notice
 * (email-change-request.server.ts). An address another account has gets the
 * same answer (202) and a notice instead of the link. Nothing changes until
 * the link is used (confirmEmailChange).
 */
export const requestEmailChange = defineProcedure({
  name: "requestEmailChange",
  access: "user",
  input: emailChangeSchema,
  async run({ input, user, ctx }) {
    await mailEmailChangeLink(ctx.db, ctx.config, user, {
      email: input.email,
      password: input.password,
      clientIp: ctx.clientIp,
      now: ctx.now,
    });
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
      if (error instanceof HttpError && error.status === 400)
        return { valid: false as const, newEmail: null, message: error.message };
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
    return accountOf(ctx.db, updated, ctx.now, currentFaceConsentVersion(ctx.config));
  },
});
