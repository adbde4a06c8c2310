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
}

/** A field's first error, with the id its input's aria-describedby points at. */
export function FieldError({ errors, id }: { errors: string[] | undefined; id: string }) {
  return errors?.length ? (
    <p id={id} className="field-error">
      {errors[0]}
    </p>
  ) : null;
}

export function TitleField({ field, defaultValue }: { field: ListingField; defaultValue: string }) {
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        Title
      </label>
      <input
        id={field.id}
        name={field.name}
        defaultValue={defaultValue}
        className="field-input"
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={field.errors?.length ? field.errorId : undefined}
      />
      <FieldError errors={field.errors} id={field.errorId} />
    </div>
  );
}

/** `showError`: whether the field's error is shown under it (the launch form does; list-for-sale does not). */
export function DescriptionField({ field, defaultValue, showError = false }: { field: ListingField; defaultValue: string; showError?: boolean }) {
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        Description
      </label>
      <textarea id={field.id} name={field.name} defaultValue={defaultValue} rows={3} className="field-input" />
      {showError ? <FieldError errors={field.errors} id={field.errorId} /> : null}
    </div>
  );
}

/** The price in dollars; `min` differs: the launch form takes 0 ("keep the price"), a listing needs more than 0. */
export function PriceField({ field, defaultValue, min }: { field: ListingField; defaultValue: string; min: "0" | "0.01" }) {
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        Price (USD)
      </label>
      <input
        id={field.id}
        name={field.name}
        type="number"
        inputMode="decimal"
        min={min}
        step="0.01"
        defaultValue={defaultValue}
        className="field-input"
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={field.errors?.length ? field.errorId : undefined}
      />
      <FieldError errors={field.errors} id={field.errorId} />
    </div>
  );
}
