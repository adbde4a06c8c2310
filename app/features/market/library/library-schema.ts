import { z } from "zod";
import { emailAddressField } from "~/lib/email-field";

/** The form and POST /api/library-link: the email whose purchases to send a library link for. */
export const libraryLinkSchema = z.object({
  email: emailAddressField({
    missing: "Please enter a valid email address.",
    invalid: "Please enter a valid email address.",
  }),
});

/** What every request for a library link is told, whatever the email. */
export const LIBRARY_LINK_SENT =
  "If that email has purchases, a link to its library is on its way. It works for 24 hours.";

/** The longest text a rating may carry. */
export const RATING_TEXT_MAX = 500;

/** The library's rating form: one purchased item, 1 to 5 stars, a short text. */
export const ratingSchema = z.object({
  orderItemId: z
    .string("Say which purchase you rate.")
    .trim()
    .min(1, "Say which purchase you rate.")
    .max(100, "Say which purchase you rate."),
  stars: z.coerce
    .number("Choose 1 to 5 stars.")
    .int("Choose 1 to 5 stars.")
    .min(1, "Choose 1 to 5 stars.")
    .max(5, "Choose 1 to 5 stars."),
  text: z
    .string()
    .trim()
    .max(RATING_TEXT_MAX, `Keep it to ${RATING_TEXT_MAX} characters.`)
    .default(""),
});
