import { Form } from "@remix-run/react";
import { type RefusedFormProps, usePlainIntentForm } from "~/ui/forms/refused-form";
import { PlainFormError, PlainTextField } from "~/ui/forms/plain-text-field";
import { CODE_MAX, CODE_MIN } from "~/features/market/discounts/discount-schema";
import { ListingCheckboxes } from "~/features/market/catalog/components/listing-checkboxes";

/**
 * "Make a code" on the Discounts screen: the code, a percent or an amount off,
 * optionally some listings, dates and a most of uses. A plain form posting
 * intent=create to /discounts, so it works without JavaScript; a refusal comes
 * back beside its field, the form filled in as it was sent.
 */
export function DiscountForm({
  listings,
  errors,
  sent,
}: RefusedFormProps & {
  listings: { id: string; title: string; price: string }[];
}) {
  const {
    text: sentText,
    values,
    error: fieldError,
    pending,
  } = usePlainIntentForm("create", errors, sent);
  const sentIds = values("listingIds");
  const field = (
    name: string,
    label: string,
    input: { type?: string; inputMode?: "decimal" | "numeric"; hint?: string; required?: boolean },
  ) => (
    <PlainTextField
      id={`discount-${name}`}
      name={name}
      label={label}
      error={fieldError(name)}
      defaultValue={sentText(name)}
      width="max-w-60"
      {...input}
    />
  );
  return (
    <Form
      method="post"
      action="/discounts"
      className="card space-y-4 p-6"
      data-testid="discount-form"
    >
      <input type="hidden" name="intent" value="create" />
      <PlainFormError error={fieldError("")} />
      {field("code", "Code", {
        required: true,
        hint: `${CODE_MIN}–${CODE_MAX} letters, digits, "-" or "_". Buyers type it at the cart.`,
      })}
      {field("percentOff", "Percent off", {
        inputMode: "numeric",
        hint: "1 to 100. Or leave it empty and give an amount off.",
      })}
      {field("amountOff", "Amount off (USD)", {
        inputMode: "decimal",
        hint: "Taken once from your images in the order.",
      })}
      {listings.length > 0 ? (
        <fieldset
          aria-describedby={fieldError("listingIds") ? "discount-listings-error" : undefined}
        >
          <legend className="text-sm font-medium text-slate-900">Only these listings</legend>
          <p className="text-sm text-slate-600">Tick none for all your listings.</p>
          <ListingCheckboxes
            listings={listings}
            checked={sentIds}
            detail={(listing) => <span className="text-sm text-slate-600">${listing.price}</span>}
          />
          {fieldError("listingIds") ? (
            <p id="discount-listings-error" className="field-error">
              {fieldError("listingIds")}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      {field("startsAt", "Starts (UTC)", { type: "date", hint: "Empty: from now." })}
      {field("endsAt", "Ends (UTC)", {
        type: "date",
        hint: "Empty: no end. It works through that whole day.",
      })}
      {field("maxRedemptions", "Most uses", {
        inputMode: "numeric",
        hint: "Paid orders that may use it. Empty: no limit.",
      })}
      <button type="submit" className="btn-primary" disabled={pending} data-testid="make-discount">
        {pending ? "Making the code..." : "Make the code"}
      </button>
    </Form>
  );
}
