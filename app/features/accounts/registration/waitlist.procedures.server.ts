import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { HttpError } from "~/infra/errors.server";
import { REGISTRATION_RATE_LIMIT, throttle, WAITLIST_RATE_LIMIT } from "~/infra/rate-limit.server";
import {
  invitationLinkSchema,
  invitedRegisterSchema,
  waitlistEntrySchema,
  waitlistJoinSchema,
} from "~/features/accounts/schemas";
import { hashPassword } from "~/features/accounts/passwords/passwords.server";
import { assertAcceptableNewPassword } from "~/features/accounts/passwords/common-passwords.server";
import {
  betaSpotsLeft,
  findInvitation,
  listWaitlist,
  registerWithInvitation,
  WAITLIST_JOINED,
} from "~/features/accounts/registration/waitlist.server";
import {
  inviteWithMail,
  joinWaitlistWithConfirmation,
} from "~/features/accounts/registration/waitlist-requests.server";

// The beta's waitlist (waitlist.server.ts).

/**
 * The Register tab's waitlist form while registration is closed: records the
 * address once (limited per client address) and mails it a confirmation. Every
 * request answers the same, whether the address was on the list already or
 * not (waitlist-requests.server.ts); nothing (an invitation, an account) is told.
 */
export const joinWaitlist = defineProcedure({
  name: "joinWaitlist",
  access: "public",
  input: waitlistJoinSchema,
  async run({ input, ctx }) {
    await throttle(ctx, WAITLIST_RATE_LIMIT);
    await joinWaitlistWithConfirmation(ctx.db, {
      email: input.email,
      spots: ctx.config.BETA_SPOTS,
      now: ctx.now,
    });
    return { joined: true as const, message: WAITLIST_JOINED };
  },
});

/**
 * The beta's real figures the landing page shows with DEMO_FIGURES off: the
 * spots left (betaSpotsLeft, the figure the waitlist's confirmation mail states
 * too) and when the beta ends (BETA_ENDS_AT set).
 */
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
      if (error instanceof HttpError && error.status === 400)
        return { valid: false as const, email: null, message: error.message };
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
    await throttle(ctx, REGISTRATION_RATE_LIMIT);
    assertAcceptableNewPassword(input.password);
    await findInvitation(ctx.db, input.invite, ctx.now);
    const passwordHash = await hashPassword(input.password);
    return registerWithInvitation(ctx.db, {
      token: input.invite,
      firstName: input.firstName,
      lastName: input.lastName,
      passwordHash,
      now: ctx.now,
    });
  },
});

/** The admin's Waitlist section: every request, oldest first, with its state, and the beta's spots when BETA_SPOTS is set. */
export const adminWaitlist = defineProcedure({
  name: "adminWaitlist",
  access: "admin",
  input: z.object({}),
  async run({ ctx }) {
    const [entries, spots] = await Promise.all([
      listWaitlist(ctx.db, ctx.now),
      betaSpotsLeft(ctx.db, ctx.config.BETA_SPOTS, ctx.now),
    ]);
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
  run: ({ input, user, ctx }) =>
    inviteWithMail(ctx.db, ctx.config, { entryId: input.entryId, adminId: user.id, now: ctx.now }),
});
