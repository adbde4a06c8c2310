import { z } from "zod";

/**
 * An email address typed into a form (a follow, a report, a checkout, a
 * library link, a model release): trimmed, `missing` when empty, `invalid`
 * when it is not an address or longer than one can be (254 characters).
 */
export const emailAddressField = ({ missing, invalid }: { missing: string; invalid: string }) =>
  z
    .string(missing)
    .trim()
    .min(1, missing)
    .max(254, invalid)
    .pipe(z.email(invalid))
    // The document of the API shows the input side of the pipe (a string): say it is an email.
    .meta({ format: "email" });
