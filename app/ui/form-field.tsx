import type { FieldMetadata } from "@conform-to/react";
import { getInputProps } from "@conform-to/react";

/** A conform field's first error under it, with the id its input's aria-describedby names; nothing while it is valid. */
export function FieldErrorText({
  field,
}: {
  field: Pick<FieldMetadata<unknown>, "errors" | "errorId">;
}) {
  return field.errors?.length ? (
    <p id={field.errorId} className="field-error">
      {field.errors[0]}
    </p>
  ) : null;
}

/** A labelled input wired to a conform field, with its error read out to assistive tech. */
export function TextField({
  field,
  label,
  type = "text",
  placeholder,
  autoComplete,
}: {
  field: FieldMetadata<string>;
  label: string;
  type?: "text" | "email" | "password" | "number" | "url";
  placeholder?: string;
  autoComplete?: string;
}) {
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        {label}
      </label>
      <input
        {...getInputProps(field, { type, ariaAttributes: true })}
        key={field.key}
        placeholder={placeholder}
        autoComplete={autoComplete}
        className="field-input"
      />
      <FieldErrorText field={field} />
    </div>
  );
}

/** A labelled email input (with an example address as its placeholder) wired to a conform field. */
export function EmailField({ field }: { field: FieldMetadata<string> }) {
  return (
    <TextField
      field={field}
      label="Email"
      type="email"
      autoComplete="email"
      placeholder="you@example.com"
    />
  );
}

/** The errors of a whole form (e.g. wrong credentials), as an alert box. */
/** The messages of a form reply's error record (conform's field name → messages), flattened. */
export function replyErrorLines(error: Record<string, unknown> | null | undefined): string[] {
  return error
    ? Object.values(error)
        .flat()
        .filter((line): line is string => typeof line === "string")
    : [];
}

export function FormErrors({ errors, id }: { errors: string[] | undefined; id?: string }) {
  if (!errors?.length) return null;
  return (
    <div
      id={id}
      role="alert"
      className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
    >
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}
