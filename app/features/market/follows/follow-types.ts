import { z } from "zod";
import { emailAddressField } from "~/lib/email-field";

/**
 * Following a creator (docs/decisions/096): the forms' schemas (the browser's
 * and the server's) and what the pages say.
 */

/** An unconfirmed follow's link works this long. */
export const FOLLOW_LINK_DAYS = 7;

/** What the answer to a follow says, whatever happened (a new follow, the same one again). */
export const FOLLOW_REQUESTED =
  "Almost there: we sent a link to your email. You follow this creator once you confirm it there.";

export const FOLLOW_CONFIRMED =
  "You follow this creator now. You get at most one email a day, when they list new images.";

export const FOLLOW_ENDED =
  "You no longer follow this creator, and we deleted your address from this follow.";

export const INVALID_FOLLOW_LINK = "This link is not valid or has expired.";
export const UNKNOWN_CREATOR = "This storefront is not on the marketplace.";

const BAD_EMAIL = "Please enter a valid email address.";

export const followSchema = z.object({
  handle: z
    .string({ error: UNKNOWN_CREATOR })
    .trim()
    .min(1, UNKNOWN_CREATOR)
    .max(100, UNKNOWN_CREATOR),
  email: emailAddressField({ missing: BAD_EMAIL, invalid: BAD_EMAIL }),
});
export type FollowInput = z.infer<typeof followSchema>;

export const followTokenSchema = z.object({
  token: z.string({ error: INVALID_FOLLOW_LINK }).trim().min(1, INVALID_FOLLOW_LINK).max(200),
});

export const dropFollowerSchema = z.object({
  email: followSchema.shape.email,
});
