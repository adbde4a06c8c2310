import { useCurrency } from "~/ui/currency";

/**
 * The pieces the launch form and the list-for-sale form share: the title,
 * description and price fields (same labels, ids and error wiring) and a
 * field's first error.
 */

/** What a field needs from conform's field metadata. */
interface ListingField {
  id: string;
  name: string;
  errorId: string;
  errors?: string[];
  /** What was submitted, when the server sent the form back (a post without JavaScript). */
  initialValue?: unknown;
}

/**
 * A field's starting text: what was submitted when the server sent the form
 * back with errors (so nothing typed is lost), else the given default.
 */
export function startValue(
  field: Pick<ListingField, "initialValue">,
  fallback: string,
  sentBack = false,
): string {
  const value = Array.isArray(field.initialValue)
    ? field.initialValue[field.initialValue.length - 1]
    : field.initialValue;
  // A form sent back leaves out the fields that were left empty.
  return typeof value === "string" ? value : sentBack ? "" : fallback;
}

/** Whether the server sent the form back (its submitted values are the starting values). */
export function wasSentBack(form: { initialValue?: unknown }): boolean {
  return Boolean(
    form.initialValue &&
    typeof form.initialValue === "object" &&
    Object.keys(form.initialValue).length > 0,
  );
}

/** Whether a checkbox with `value` was ticked in what the server sent back; `fallback` when nothing was. */
export function startChecked(
  field: Pick<ListingField, "initialValue">,
  value: string,
  fallback: boolean,
  sentBack = false,
): boolean {
  const submitted = field.initialValue;
  if (submitted === undefined || submitted === null) return sentBack ? false : fallback;
  const values = Array.isArray(submitted) ? submitted : [submitted];
  return values.includes(value);
}

/** A field's first error, with the id its input's aria-describedby points at. */
export function FieldError({ errors, id }: { errors: string[] | undefined; id: string }) {
  return errors?.length ? (
    <p id={id} className="field-error">
      {errors[0]}
    </p>
  ) : null;
}

export function TitleField({
  field,
  defaultValue,
  sentBack,
}: {
  field: ListingField;
  defaultValue: string;
  sentBack?: boolean;
}) {
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        Title
      </label>
      <input
        id={field.id}
        name={field.name}
        defaultValue={startValue(field, defaultValue, sentBack)}
        className="field-input"
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={field.errors?.length ? field.errorId : undefined}
      />
      <FieldError errors={field.errors} id={field.errorId} />
    </div>
  );
}

/** `sentBack`: the server sent the form back (see startValue). `showError`: whether the field's error is shown under it (the launch form does; list-for-sale does not). */
export function DescriptionField({
  field,
  defaultValue,
  showError = false,
  sentBack,
}: {
  field: ListingField;
  defaultValue: string;
  showError?: boolean;
  sentBack?: boolean;
}) {
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        Description
      </label>
      <textarea
        id={field.id}
        name={field.name}
        defaultValue={startValue(field, defaultValue, sentBack)}
        rows={3}
        className="field-input"
      />
      {showError ? <FieldError errors={field.errors} id={field.errorId} /> : null}
    </div>
  );
}

/** The price in dollars; `min` differs: the launch form takes 0 ("keep the price"), a listing needs more than 0. */
export function PriceField({
  field,
  defaultValue,
  sentBack,
}: {
  field: ListingField;
  defaultValue: string;
  sentBack?: boolean;
}) {
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        Price ({useCurrency().toUpperCase()})
      </label>
      <input
        id={field.id}
        name={field.name}
        type="number"
        inputMode="decimal"
        min="0.01"
        step="0.01"
        defaultValue={startValue(field, defaultValue, sentBack)}
        className="field-input"
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={field.errors?.length ? field.errorId : undefined}
      />
      <FieldError errors={field.errors} id={field.errorId} />
    </div>
  );
}
