import { type FieldMetadata, getInputProps, getTextareaProps } from "@conform-to/react";
import { isOkAnswer, isSubmissionResult } from "~/ui/forms/fetcher-answers";
import { ListImageForm } from "~/ui/forms/list-image-form";
import { useFetcherForm } from "~/ui/forms/use-fetcher-form";
import { useCurrency } from "~/ui/currency";
import { FieldErrorText } from "~/ui/form-field";

/** The form's schema, loaded after the page rendered. */
const loadListingSchema = () =>
  import("~/features/market/catalog/listing-schema").then((m) => m.listingInputSchema);

export interface ListingFormDefaults {
  stylizedImageId: string;
  title: string;
  description: string;
  /** Dollars, as text ("75", "12.50"). */
  price: string;
  /** Comma-separated. */
  tags: string;
  /** The Extended and Exclusive licences' prices (dollars), "" where the tier is not offered. */
  extendedPrice: string;
  exclusivePrice: string;
  licensingEnabled: boolean;
  listed: boolean;
}

/**
 * Lists a stylized image on the product's own marketplace, or updates its
 * listing. A plain form posting to /listings: without JavaScript the action
 * redirects back to `redirectTo` with a flash message (or shows the /listings
 * page with the errors); with JavaScript it posts through a fetcher and
 * toasts the outcome. Embed it anywhere a completed stylized image is shown.
 */
export function ListOnMarketplaceForm({
  defaults,
  redirectTo,
  pageResult,
}: {
  defaults: ListingFormDefaults;
  redirectTo: string;
  /** The /listings action's answer after a no-JS post (the /listings page passes it). */
  pageResult?: unknown;
}) {
  const { fetcher, form, fields, pending } = useFetcherForm({
    id: `list-on-marketplace-${defaults.stylizedImageId}`,
    fetcherKey: `list-${defaults.stylizedImageId}`,
    loadSchema: loadListingSchema,
    pageResult,
    defaultValue: {
      title: defaults.title,
      description: defaults.description,
      price: defaults.price,
      tags: defaults.tags,
      extendedPrice: defaults.extendedPrice,
      exclusivePrice: defaults.exclusivePrice,
    },
    onAnswer: (answer) => {
      if (isOkAnswer<{ created: boolean }>(answer)) {
        return {
          kind: "success",
          title: answer.created ? "Listed on the marketplace" : "Listing updated",
          description: "Your image is for sale on the marketplace.",
        };
      }
      if (isSubmissionResult(answer) && answer.error?.[""]?.length) {
        return { kind: "error", title: "Listing failed", description: answer.error[""][0] };
      }
    },
  });

  const currency = useCurrency().toUpperCase();
  const fieldId = (name: string) => `${form.id}-${name}`;
  // A no-JS post sent back with errors: the first invalid field takes the focus (and the eye).
  const firstInvalid = pageResult
    ? (["title", "description", "price", "tags", "extendedPrice", "exclusivePrice"] as const).find(
        (name) => fields[name].errors?.length,
      )
    : undefined;
  return (
    <ListImageForm
      fetcher={fetcher}
      form={form}
      action="/listings"
      hidden={{ intent: "list", stylizedImageId: defaults.stylizedImageId, redirectTo }}
      jsMarker="enhanced"
      className="space-y-4"
      testId="list-on-marketplace-form"
    >
      <div>
        <label htmlFor={fieldId("title")} className="field-label">
          Title
        </label>
        <input
          {...getInputProps(fields.title, { type: "text", ariaAttributes: true })}
          id={fieldId("title")}
          key={fields.title.key}
          autoFocus={firstInvalid === "title"}
          className="field-input"
        />
        <FieldErrorText field={fields.title} />
      </div>
      <div>
        <label htmlFor={fieldId("description")} className="field-label">
          Description
        </label>
        <textarea
          {...getTextareaProps(fields.description, { ariaAttributes: true })}
          id={fieldId("description")}
          key={fields.description.key}
          autoFocus={firstInvalid === "description"}
          rows={3}
          className="field-input"
        />
        <FieldErrorText field={fields.description} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <PriceInput
          field={fields.price}
          id={fieldId("price")}
          label={`Price (${currency})`}
          autoFocus={firstInvalid === "price"}
        />
        <div>
          <label htmlFor={fieldId("tags")} className="field-label">
            Tags (comma separated)
          </label>
          <input
            {...getInputProps(fields.tags, { type: "text", ariaAttributes: true })}
            id={fieldId("tags")}
            key={fields.tags.key}
            autoFocus={firstInvalid === "tags"}
            className="field-input"
          />
          <FieldErrorText field={fields.tags} />
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <PriceInput
          field={fields.extendedPrice}
          id={fieldId("extendedPrice")}
          label={`Extended license price (${currency}, optional)`}
          autoFocus={firstInvalid === "extendedPrice"}
        />
        <PriceInput
          field={fields.exclusivePrice}
          id={fieldId("exclusivePrice")}
          label={`Exclusive license price (${currency}, optional)`}
          autoFocus={firstInvalid === "exclusivePrice"}
        />
      </div>
      <div className="flex items-center gap-2">
        <input type="hidden" name="licensingEnabled" value="false" />
        <input
          type="checkbox"
          id={fieldId("licensing")}
          name="licensingEnabled"
          value="true"
          defaultChecked={defaults.licensingEnabled}
          className="choice-input"
        />
        <label htmlFor={fieldId("licensing")} className="text-sm text-slate-800">
          Offer a standard commercial license
        </label>
      </div>
      <button
        type="submit"
        className="btn-primary"
        disabled={pending}
        data-testid="list-on-marketplace"
      >
        {pending ? "Saving..." : defaults.listed ? "Update Listing" : "List on Marketplace"}
      </button>
    </ListImageForm>
  );
}

/** A price in dollars (the currency's units), with its error below. */
function PriceInput({
  field,
  id,
  label,
  autoFocus,
}: {
  field: FieldMetadata<unknown, Record<string, unknown>, string[]>;
  id: string;
  label: string;
  autoFocus: boolean;
}) {
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <input
        {...getInputProps(field, { type: "number", ariaAttributes: true })}
        id={id}
        key={field.key}
        autoFocus={autoFocus}
        min="0.01"
        step="0.01"
        inputMode="decimal"
        className="field-input"
      />
      {field.errors?.length ? <p className="field-error">{field.errors[0]}</p> : null}
    </div>
  );
}
