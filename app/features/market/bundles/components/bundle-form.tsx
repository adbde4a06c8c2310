import { Form } from "@remix-run/react";
import { type RefusedFormProps, usePlainIntentForm } from "~/ui/forms/refused-form";
import { PlainFormError, PlainTextField } from "~/ui/forms/plain-text-field";
import { MAX_BUNDLE_ITEMS, MIN_BUNDLE_ITEMS } from "~/features/market/bundles/bundle-schema";
import { StyleBadge } from "~/features/market/catalog/components/style-badge";
import { ListingCheckboxes } from "~/features/market/catalog/components/listing-checkboxes";

/**
 * "Make a bundle" on My listings: a title, checkboxes of the creator's live
 * listings and the bundle's price. A plain form posting intent=bundle to
 * /listings, so it works without JavaScript; a refusal comes back beside its field.
 */
export function BundleForm({
  listings,
  errors,
  sent,
}: RefusedFormProps & {
  listings: { id: string; title: string; style: string; price: string }[];
}) {
  const {
    text: sentText,
    values,
    error: fieldError,
    pending,
  } = usePlainIntentForm("bundle", errors, sent);
  const sentIds = values("listingIds");
  return (
    <Form method="post" action="/listings" className="card space-y-4 p-6" data-testid="bundle-form">
      <input type="hidden" name="intent" value="bundle" />
      <p className="text-sm text-slate-700">
        Sell {MIN_BUNDLE_ITEMS} to {MAX_BUNDLE_ITEMS} of your live listings together, at a price
        below their sum. Each buyer gets every image with its license.
      </p>
      <PlainFormError error={fieldError("")} />
      <PlainTextField
        id="bundle-title"
        name="title"
        label="Title"
        error={fieldError("title")}
        defaultValue={sentText("title")}
        maxLength={120}
        required
      />
      <fieldset aria-describedby={fieldError("listingIds") ? "bundle-items-error" : undefined}>
        <legend className="text-sm font-medium text-slate-900">Listings</legend>
        <ListingCheckboxes
          listings={listings}
          checked={sentIds}
          testId="bundle-listing"
          detail={(listing) => (
            <span className="mt-1 flex flex-wrap items-center gap-2">
              <StyleBadge style={listing.style} />
              <span className="text-sm text-slate-600">${listing.price}</span>
            </span>
          )}
        />
        {fieldError("listingIds") ? (
          <p id="bundle-items-error" className="field-error">
            {fieldError("listingIds")}
          </p>
        ) : null}
      </fieldset>
      <PlainTextField
        id="bundle-price"
        name="price"
        label="Bundle price (USD)"
        error={fieldError("price")}
        defaultValue={sentText("price")}
        inputMode="decimal"
        required
        width="max-w-40"
      />
      <button type="submit" className="btn-primary" disabled={pending} data-testid="make-bundle">
        {pending ? "Making the bundle..." : "Make the bundle"}
      </button>
    </Form>
  );
}
