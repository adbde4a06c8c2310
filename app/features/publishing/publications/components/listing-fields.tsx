import type { InputHTMLAttributes, ReactNode } from "react";
import { useCurrency } from "~/ui/currency";

/**
 * The pieces the launch form and the list-for-sale form share: the title,
 * description and price fields (same labels, ids and error wiring), the
 * platforms fieldset and its checkboxes, and a field's first error.
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

/** What each listing field takes: its conform field, its starting value, whether the server sent the form back (see startValue). */
interface ListingFieldProps {
  field: ListingField;
  defaultValue: string;
  sentBack?: boolean;
}

export function TitleField({ field, defaultValue, sentBack }: ListingFieldProps) {
  return (
    <ListingInput field={field} label="Title" defaultValue={defaultValue} sentBack={sentBack} />
  );
}

/** A labelled one-line input with its error under it, focused when the server sent it back invalid; `input` adds attributes (a type, bounds). */
function ListingInput({
  field,
  label,
  defaultValue,
  sentBack,
  input,
}: ListingFieldProps & { label: ReactNode; input?: InputHTMLAttributes<HTMLInputElement> }) {
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        {label}
      </label>
      <input
        id={field.id}
        name={field.name}
        {...input}
        defaultValue={startValue(field, defaultValue, sentBack)}
        // Without JavaScript the page comes back with the error: the eye (and the keyboard) start at the field to fix.
        autoFocus={sentBack && Boolean(field.errors?.length)}
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
}: ListingFieldProps & { showError?: boolean }) {
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
export function PriceField({ field, defaultValue, sentBack }: ListingFieldProps) {
  return (
    <ListingInput
      field={field}
      label={<>Price ({useCurrency().toUpperCase()})</>}
      defaultValue={defaultValue}
      sentBack={sentBack}
      input={{ type: "number", inputMode: "decimal", min: "0.01", step: "0.01" }}
    />
  );
}

/**
 * The Extended and Exclusive licences' prices on the own marketplace (decision
 * 101): optional, each at least the Standard price; empty, the tier is not offered.
 */
export function TierPriceFields({
  extended,
  exclusive,
  defaults,
  sentBack,
}: {
  extended: ListingField;
  exclusive: ListingField;
  defaults?: { extended?: string | null; exclusive?: string | null };
  sentBack?: boolean;
}) {
  const currency = useCurrency().toUpperCase();
  const input = { type: "number", inputMode: "decimal", min: "0.01", step: "0.01" } as const;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <ListingInput
        field={extended}
        label={<>Extended license price ({currency}, optional)</>}
        defaultValue={defaults?.extended ?? ""}
        sentBack={sentBack}
        input={input}
      />
      <ListingInput
        field={exclusive}
        label={<>Exclusive license price ({currency}, optional)</>}
        defaultValue={defaults?.exclusive ?? ""}
        sentBack={sentBack}
        input={input}
      />
    </div>
  );
}

/** The platforms to post to: the caller's platform rows (see PlatformCheckbox), the field's error, then `footer`. */
export function PlatformsFieldset({
  field,
  listClassName,
  footer,
  children,
}: {
  field: ListingField;
  listClassName: string;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <fieldset aria-describedby={field.errors?.length ? field.errorId : undefined}>
      <legend className="field-label">Platforms</legend>
      <div className={listClassName}>{children}</div>
      <FieldError errors={field.errors} id={field.errorId} />
      {footer}
    </fieldset>
  );
}

/** A platform's checkbox: ticked for the marketplace unless the server sent the form back without it. */
export function PlatformCheckbox({
  field,
  platformId,
  sentBack,
  disabled,
}: {
  field: ListingField;
  platformId: string;
  sentBack: boolean;
  disabled?: boolean;
}) {
  return (
    <input
      type="checkbox"
      name="platforms"
      value={platformId}
      defaultChecked={startChecked(field, platformId, platformId === "marketplace", sentBack)}
      disabled={disabled}
      className="choice-input"
    />
  );
}
