import { Form } from "@remix-run/react";
import { type RefusedFormErrors, usePlainIntentForm } from "~/ui/forms/refused-form";
import { MAX_BUNDLE_ITEMS, MIN_BUNDLE_ITEMS } from "~/features/market/bundles/bundle-schema";
import { StyleBadge } from "~/features/market/catalog/components/style-badge";

/**
 * "Make a bundle" on My listings: a title, checkboxes of the creator's live
 * listings and the bundle's price. A plain form posting intent=bundle to
 * /listings, so it works without JavaScript; a refusal comes back beside its field.
 */
export function BundleForm({
  listings,
  errors,
  sent,
}: {
  listings: { id: string; title: string; style: string; price: string }[];
  errors: RefusedFormErrors;
  /** What the refused form held, so it comes back filled in. */
  sent?: Record<string, unknown> | null;
}) {
  const {
    text: sentText,
    values,
    error: fieldError,
    pending,
  } = usePlainIntentForm("bundle", errors, sent);
  const sentIds = values("listingIds");
  const formError = fieldError("") ?? null;
  return (
    <Form method="post" action="/listings" className="card space-y-4 p-6" data-testid="bundle-form">
      <input type="hidden" name="intent" value="bundle" />
      <p className="text-sm text-slate-700">
        Sell {MIN_BUNDLE_ITEMS} to {MAX_BUNDLE_ITEMS} of your live listings together, at a price
        below their sum. Each buyer gets every image with its license.
      </p>
      {formError ? (
        <p role="alert" className="text-sm text-red-700">
          {formError}
        </p>
      ) : null}
      <div>
        <label htmlFor="bundle-title" className="field-label">
          Title
        </label>
        <input
          id="bundle-title"
          name="title"
          defaultValue={sentText("title")}
          maxLength={120}
          required
          className="field-input"
          aria-invalid={fieldError("title") ? true : undefined}
          aria-describedby={fieldError("title") ? "bundle-title-error" : undefined}
        />
        {fieldError("title") ? (
          <p id="bundle-title-error" className="field-error">
            {fieldError("title")}
          </p>
        ) : null}
      </div>
      <fieldset aria-describedby={fieldError("listingIds") ? "bundle-items-error" : undefined}>
        <legend className="text-sm font-medium text-slate-900">Listings</legend>
        <ul className="mt-1 space-y-1">
          {listings.map((listing) => (
            <li key={listing.id}>
              {/* The title on a line of its own, its style and price under it: a phone keeps whole words. */}
              <label className="flex min-h-11 items-start gap-3 py-1 text-slate-800">
                <input
                  type="checkbox"
                  name="listingIds"
                  value={listing.id}
                  defaultChecked={sentIds.has(listing.id)}
                  className="choice-input mt-0.5"
                  data-testid="bundle-listing"
                />
                <span className="min-w-0 flex-1">
                  <span className="block wrap-anywhere">{listing.title}</span>
                  <span className="mt-1 flex flex-wrap items-center gap-2">
                    <StyleBadge style={listing.style} />
                    <span className="text-sm text-slate-600">${listing.price}</span>
                  </span>
                </span>
              </label>
            </li>
          ))}
        </ul>
        {fieldError("listingIds") ? (
          <p id="bundle-items-error" className="field-error">
            {fieldError("listingIds")}
          </p>
        ) : null}
      </fieldset>
      <div>
        <label htmlFor="bundle-price" className="field-label">
          Bundle price (USD)
        </label>
        <input
          id="bundle-price"
          name="price"
          defaultValue={sentText("price")}
          inputMode="decimal"
          required
          className="field-input max-w-40"
          aria-invalid={fieldError("price") ? true : undefined}
          aria-describedby={fieldError("price") ? "bundle-price-error" : undefined}
        />
        {fieldError("price") ? (
          <p id="bundle-price-error" className="field-error">
            {fieldError("price")}
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn-primary" disabled={pending} data-testid="make-bundle">
        {pending ? "Making the bundle..." : "Make the bundle"}
      </button>
    </Form>
  );
}
