import { z } from "zod";

/**
 * An email address typed into a form (a follow, a report, a checkout, a
 * library link, a model release, an account's): trimmed (and lower-cased with
 * `lowerCase`), `missing` when empty, `invalid` when it is not an address or
 * longer than one can be (254 characters).
 */
export const emailAddressField = ({
  missing,
  invalid,
  lowerCase = false,
}: {
  missing: string;
  invalid: string;
  lowerCase?: boolean;
}) =>
  (lowerCase ? z.string(missing).trim().toLowerCase() : z.string(missing).trim())
    .min(1, missing)
    .max(254, invalid)
    .pipe(z.email(invalid))
    // The document of the API shows the input side of the pipe (a string): say it is an email.
    .meta({ format: "email" });
