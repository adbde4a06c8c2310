import { z } from "zod";
import { MISSING_INFORMATION } from "~/features/market/types";

/**
 * The checkout form: name and email required, company
 * optional. One schema for the dialog, the no-JS page and the server.
 */
export const customerInfoSchema = z.object({
  name: z
    .string(MISSING_INFORMATION.description)
    .trim()
    .min(1, MISSING_INFORMATION.description)
    .max(120, "Please use at most 120 characters."),
  email: z
    .string(MISSING_INFORMATION.description)
    .trim()
    .min(1, MISSING_INFORMATION.description)
    .max(254, "Please enter a valid email address.")
    .pipe(z.email("Please enter a valid email address."))
    .meta({ format: "email" }),
  company: z
    .string()
    .trim()
    .max(120, "Please use at most 120 characters.")
    .optional()
    .transform((value) => (value ? value : undefined)),
});

export interface CustomerInfo {
  name: string;
  email: string;
  company?: string;
}
