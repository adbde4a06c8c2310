import { Form } from "@remix-run/react";
import { type RefusedFormErrors, usePlainIntentForm } from "~/ui/forms/refused-form";
import { CODE_MAX, CODE_MIN } from "~/features/market/discounts/discount-schema";

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
}: {
  listings: { id: string; title: string; price: string }[];
  errors: RefusedFormErrors;
  sent?: Record<string, unknown> | null;
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
  ) => {
    const id = `discount-${name}`;
    const error = fieldError(name);
    const described = [input.hint ? `${id}-hint` : null, error ? `${id}-error` : null]
      .filter(Boolean)
      .join(" ");
    return (
      <div>
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        {input.hint ? (
          <p id={`${id}-hint`} className="text-sm text-slate-600">
            {input.hint}
          </p>
        ) : null}
        <input
          id={id}
          name={name}
          type={input.type ?? "text"}
          inputMode={input.inputMode}
          required={input.required}
          defaultValue={sentText(name)}
          className="field-input max-w-60"
          aria-invalid={error ? true : undefined}
          aria-describedby={described || undefined}
        />
        {error ? (
          <p id={`${id}-error`} className="field-error">
            {error}
          </p>
        ) : null}
      </div>
    );
  };
  const formError = fieldError("");
  return (
    <Form
      method="post"
      action="/discounts"
      className="card space-y-4 p-6"
      data-testid="discount-form"
    >
      <input type="hidden" name="intent" value="create" />
      {formError ? (
        <p role="alert" className="text-sm text-red-700">
          {formError}
        </p>
      ) : null}
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
          <ul className="mt-1 space-y-1">
            {listings.map((listing) => (
              <li key={listing.id}>
                <label className="flex min-h-11 items-start gap-3 py-1 text-slate-800">
                  <input
                    type="checkbox"
                    name="listingIds"
                    value={listing.id}
                    defaultChecked={sentIds.has(listing.id)}
                    className="choice-input mt-0.5"
                  />
                  <span className="min-w-0 flex-1">
                    <span className="block wrap-anywhere">{listing.title}</span>
                    <span className="text-sm text-slate-600">${listing.price}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
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
