import { z } from "zod";
import { priceInput } from "~/features/market/catalog/listing-schema";

/**
 * A discount code as a creator makes it, on the Discounts screen and through
 * POST /api/token-discounts: a code, a percent or an amount off, optionally
 * only some of their listings, a start and an end, a most of paid orders.
 * One schema for the form and the API.
 */
export const CODE_MIN = 3;
export const CODE_MAX = 32;
export const MAX_CODE_LISTINGS = 100;
export const MAX_REDEMPTIONS = 1_000_000;

export const CODE_FORMAT_MESSAGE = `A code is ${CODE_MIN}–${CODE_MAX} letters, digits, "-" or "_".`;
export const ONE_KIND_MESSAGE = "Give either a percent off or an amount off, not both.";
const PERCENT_MESSAGE = "The percent off is a whole number from 1 to 100.";
const DATE_MESSAGE = "Enter a date (YYYY-MM-DD) or a date and time (ISO 8601).";
const REDEMPTIONS_MESSAGE = `The most uses is a whole number from 1 to ${MAX_REDEMPTIONS.toLocaleString("en-US")}.`;
export const ENDS_BEFORE_START_MESSAGE = "The end must be after the start.";

/** A code as buyers type it: spaces around it dropped, upper case. */
export const codeText = z
  .string(CODE_FORMAT_MESSAGE)
  .trim()
  .toUpperCase()
  .refine(
    (value) => new RegExp(`^[A-Z0-9_-]{${CODE_MIN},${CODE_MAX}}$`).test(value),
    CODE_FORMAT_MESSAGE,
  );

const emptyIsMissing = (value: unknown) =>
  value === "" || value === null || (typeof value === "string" && value.trim() === "")
    ? undefined
    : value;

/**
 * A whole number from a JSON number or a form's digits; anything else (true,
 * "1e2", "") is refused, not coerced.
 */
function wholeNumber(message: string, min: number, max: number) {
  return z.preprocess((value) => {
    const given = emptyIsMissing(value);
    return typeof given === "string" && /^\s*\d{1,9}\s*$/.test(given) ? Number(given) : given;
  }, z.number(message).int(message).min(min, message).max(max, message).optional());
}

const percentOff = wholeNumber(PERCENT_MESSAGE, 1, 100);

/**
 * A moment: an ISO 8601 date and time, or a date alone (a form's date field),
 * which for a start is the beginning of that day and for an end its last
 * moment, in UTC. Answers an ISO string.
 */
function moment(edge: "start" | "end") {
  return z.preprocess(
    emptyIsMissing,
    z
      .string(DATE_MESSAGE)
      .trim()
      .max(40, DATE_MESSAGE)
      .transform((value, context) => {
        const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
        const stamp = dateOnly
          ? `${value}T${edge === "start" ? "00:00:00.000" : "23:59:59.999"}Z`
          : value;
        const time =
          dateOnly ||
          /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)
            ? Date.parse(stamp)
            : Number.NaN;
        if (
          !Number.isFinite(time) ||
          (dateOnly && !new Date(time).toISOString().startsWith(value))
        ) {
          context.addIssue({ code: "custom", message: DATE_MESSAGE });
          return z.NEVER;
        }
        return new Date(time).toISOString();
      })
      .optional(),
  );
}

export const discountInputSchema = z
  .object({
    code: codeText,
    percentOff,
    /** Dollars, as a listing's price is given. */
    amountOff: priceInput,
    /** The listings it applies to (a form's checkboxes send one value per ticked box); none: all of the creator's. */
    listingIds: z.preprocess(
      (value) => (typeof value === "string" ? [value] : value === null ? undefined : value),
      z
        .array(z.string().trim().min(1).max(100), "Choose listings from your own.")
        .max(MAX_CODE_LISTINGS, `A code applies to at most ${MAX_CODE_LISTINGS} listings.`)
        .optional(),
    ),
    startsAt: moment("start"),
    endsAt: moment("end"),
    maxRedemptions: wholeNumber(REDEMPTIONS_MESSAGE, 1, MAX_REDEMPTIONS),
  })
  .superRefine((input, context) => {
    if ((input.percentOff === undefined) === (input.amountOff === undefined))
      context.addIssue({ code: "custom", message: ONE_KIND_MESSAGE, path: ["percentOff"] });
    if (input.startsAt && input.endsAt && input.endsAt <= input.startsAt)
      context.addIssue({ code: "custom", message: ENDS_BEFORE_START_MESSAGE, path: ["endsAt"] });
  });

export type DiscountInput = z.output<typeof discountInputSchema>;

/** A code a buyer types at the cart or the checkout; empty means none. */
export const enteredCodeSchema = z
  .string("Enter a discount code.")
  .trim()
  .max(64, "That discount code does not exist.")
  .optional()
  .transform((value) => (value ? value : undefined));
