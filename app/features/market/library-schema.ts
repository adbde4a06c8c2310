import { z } from "zod";

/** The form and POST /api/library-link: the email whose purchases to send a library link for. */
export const libraryLinkSchema = z.object({
  email: z
    .string("Please enter a valid email address.")
    .trim()
    .min(1, "Please enter a valid email address.")
    .max(254, "Please enter a valid email address.")
    .pipe(z.email("Please enter a valid email address."))
    .meta({ format: "email" }),
});

/** What every request for a library link is told, whatever the email. */
export const LIBRARY_LINK_SENT =
  "If that email has purchases, a link to its library is on its way. It works for 24 hours.";
