import { defineProcedure } from "~/infra/procedure.server";
import {
  FOLLOW_EMAIL_RATE_LIMIT,
  FOLLOW_RATE_LIMIT,
  throttleMailingForm,
} from "~/infra/rate-limit.server";
import { mailLinkOrigin } from "~/infra/configured-origin.server";
import { dropFollowerSchema, followSchema, followTokenSchema } from "./follow-types";
import {
  confirmFollow as confirmFollowWithToken,
  dropFollowerAddress,
  endFollow,
  requestFollow,
} from "./follows.server";

/**
 * Follows (follows.server.ts): anyone follows a creator by email (the Follow
 * form on storefronts and listing pages, POST /api/follows), confirms it on the
 * mailed link's page (/follows/confirm) and ends it with one click
 * (/follows/unsubscribe, the List-Unsubscribe address); the super admin drops
 * an address that bounces or complains (the admin portal).
 */

/**
 * Follows a creator: limited per client address (FOLLOWS_PER_ADDRESS an hour)
 * and per follower email (FOLLOW_EMAIL_RATE_LIMIT), counted before anything is
 * read or stored, so a flood is a 429 with Retry-After that leaves nothing.
 */
export const followCreator = defineProcedure({
  name: "followCreator",
  access: "public",
  input: followSchema,
  async run({ input, ctx }) {
    await throttleMailingForm(
      ctx,
      { perAddress: FOLLOW_RATE_LIMIT, perEmail: FOLLOW_EMAIL_RATE_LIMIT },
      input.email,
    );
    return requestFollow(ctx.db, {
      input,
      origin: mailLinkOrigin(ctx.config, "A follow's confirmation mail"),
      now: ctx.now,
    });
  },
});

/** The confirmation page's button: the follow gets digests from now on. */
export const confirmFollow = defineProcedure({
  name: "confirmFollow",
  access: "public",
  input: followTokenSchema,
  run: ({ input, ctx }) => confirmFollowWithToken(ctx.db, { token: input.token, now: ctx.now }),
});

/** The one-click unsubscribe (RFC 8058) and the unsubscribe page's button: the follow and its address go. */
export const unfollow = defineProcedure({
  name: "unfollow",
  access: "public",
  input: followTokenSchema,
  run: ({ input, ctx }) => endFollow(ctx.db, { token: input.token }),
});

/** The admin drops a follower address that bounces or complains: every follow of it goes. */
export const dropFollower = defineProcedure({
  name: "dropFollower",
  access: "admin",
  input: dropFollowerSchema,
  run: ({ input, user, ctx }) =>
    dropFollowerAddress(ctx.db, { email: input.email, adminId: user.id, now: ctx.now }),
});
