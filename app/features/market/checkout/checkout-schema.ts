import { z } from "zod";
import { emailAddressField } from "~/lib/email-field";
import { holdsOnlyXmlText, nonXmlTextMessage } from "~/lib/xml-text";
import { INVALID_EMAIL, MISSING_INFORMATION } from "~/features/market/types";
import { countryName, normalizeCountry } from "~/lib/payout-countries";
import { MALFORMED_VAT_NUMBER, normalizeVatNumber, vatNumberCountry } from "~/lib/vat-numbers";
import { enteredCodeSchema } from "~/features/market/discounts/discount-schema";

/** What the form and the API say of a country that is not an ISO 3166-1 alpha-2 code. */
export const UNKNOWN_COUNTRY =
  "Choose your country from the list (an ISO 3166-1 two-letter code such as DE), or leave it empty.";

/**
 * The checkout form: name and email required; company, country (ISO 3166-1
 * alpha-2, where tax is charged) and, for a business, a VAT number optional
 * (an EU or UK one, in its format; it must be of the country chosen).
 * One schema for the dialog, the no-JS page and the server.
 */
export const customerInfoSchema = z
  .object({
    name: z
      .string(MISSING_INFORMATION.description)
      .trim()
      .min(1, MISSING_INFORMATION.description)
      .max(120, "Please use at most 120 characters.")
      .refine(holdsOnlyXmlText, nonXmlTextMessage("The name")),
    email: emailAddressField({ missing: MISSING_INFORMATION.description, invalid: INVALID_EMAIL }),
    company: z
      .string()
      .trim()
      .max(120, "Please use at most 120 characters.")
      .refine(holdsOnlyXmlText, nonXmlTextMessage("The company"))
      .optional()
      .transform((value) => (value ? value : undefined)),
    country: z
      .string(UNKNOWN_COUNTRY)
      .max(60, UNKNOWN_COUNTRY)
      .optional()
      .transform((value, ctx) => {
        if (!value?.trim()) return undefined;
        const code = normalizeCountry(value);
        if (code) return code;
        ctx.addIssue({ code: "custom", message: UNKNOWN_COUNTRY });
        return z.NEVER;
      }),
    vatNumber: z
      .string(MALFORMED_VAT_NUMBER)
      .max(40, MALFORMED_VAT_NUMBER)
      .optional()
      .transform((value, ctx) => {
        const normalized = normalizeVatNumber(value ?? "");
        if (!normalized) return undefined;
        if (vatNumberCountry(normalized)) return normalized;
        ctx.addIssue({ code: "custom", message: MALFORMED_VAT_NUMBER });
        return z.NEVER;
      }),
  })
  .superRefine((info, ctx) => {
    if (!info.vatNumber) return;
    const numberCountry = vatNumberCountry(info.vatNumber)!;
    if (!info.country) {
      ctx.addIssue({
        code: "custom",
        path: ["country"],
        message: `Choose your country to go with your VAT number (${countryName(numberCountry)}).`,
      });
    } else if (numberCountry !== info.country) {
      ctx.addIssue({
        code: "custom",
        path: ["vatNumber"],
        message: `This VAT number is from ${countryName(numberCountry)}, but the country chosen is ${countryName(info.country)}.`,
      });
    }
  });

export interface CustomerInfo {
  name: string;
  email: string;
  company?: string;
  /** ISO 3166-1 alpha-2, upper case; where the buyer is (the tax). */
  country?: string;
  /** A well-formed EU or UK VAT number of `country`, normalized (a business buying). */
  vatNumber?: string;
}

/** A checkout session's id, as the payment status, the success return and the test checkout take it. */
export const sessionIdSchema = z.object({
  sessionId: z
    .string("Enter a checkout session id")
    .trim()
    .min(1, "Enter a checkout session id")
    .max(300),
});

/**
 * The checkout form of /cart and the marketplace's dialog: the buyer's
 * details and a discount code (optional; the checkout says when it takes
 * nothing off).
 */
export const checkoutFormSchema = customerInfoSchema.safeExtend({
  discountCode: enteredCodeSchema,
});
