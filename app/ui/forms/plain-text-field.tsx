/**
 * A labelled text input of a plain form (one that works without JavaScript):
 * an optional hint under the label, the field's refusal under the input, both
 * read out with it, and the value it was sent with when the form comes back.
 */
export function PlainTextField({
  id,
  name,
  label,
  hint,
  error,
  defaultValue,
  type = "text",
  inputMode,
  required,
  maxLength,
  width,
}: {
  id: string;
  name: string;
  label: string;
  hint?: string;
  /** The field's first refusal message, or null. */
  error: string | null;
  defaultValue: string | undefined;
  type?: string;
  inputMode?: "decimal" | "numeric";
  required?: boolean;
  maxLength?: number;
  /** A max-width class for a short value (a price, a date), e.g. "max-w-40". */
  width?: string;
}) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null]
    .filter(Boolean)
    .join(" ");
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type={type}
        inputMode={inputMode}
        required={required}
        maxLength={maxLength}
        defaultValue={defaultValue}
        className={width ? `field-input ${width}` : "field-input"}
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
}

/** The refusal of a plain form as a whole (not of one field), above its fields. */
export function PlainFormError({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="text-sm text-red-700">
      {error}
    </p>
  ) : null;
}
