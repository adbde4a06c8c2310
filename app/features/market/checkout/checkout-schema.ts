import { z } from "zod";
import { holdsOnlyXmlText, nonXmlTextMessage } from "~/lib/xml-text";
import { INVALID_EMAIL, MISSING_INFORMATION } from "~/features/market/types";

/**
 * The checkout form: name and email required, company
 * optional. One schema for the dialog, the no-JS page and the server.
 */
export const customerInfoSchema = z.object({
  name: z
    .string(MISSING_INFORMATION.description)
    .trim()
    .min(1, MISSING_INFORMATION.description)
    .max(120, "Please use at most 120 characters.")
    .refine(holdsOnlyXmlText, nonXmlTextMessage("The name")),
  email: z
    .string(MISSING_INFORMATION.description)
    .trim()
    .min(1, MISSING_INFORMATION.description)
    .max(254, INVALID_EMAIL)
    .pipe(z.email(INVALID_EMAIL))
    .meta({ format: "email" }),
  company: z
    .string()
    .trim()
    .max(120, "Please use at most 120 characters.")
    .refine(holdsOnlyXmlText, nonXmlTextMessage("The company"))
    .optional()
    .transform((value) => (value ? value : undefined)),
});

export interface CustomerInfo {
  name: string;
  email: string;
  company?: string;
}

/** A checkout session's id, as the payment status, the success return and the test checkout take it. */
export const sessionIdSchema = z.object({
  sessionId: z
    .string("Enter a checkout session id")
    .trim()
    .min(1, "Enter a checkout session id")
    .max(300),
});
