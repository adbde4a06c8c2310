import type { ReactNode } from "react";
import { Form } from "@remix-run/react";
import type { FetcherWithComponents } from "@remix-run/react";
import { getFormProps } from "@conform-to/react";
import type { FormMetadata } from "@conform-to/react";
import { FormErrors } from "~/ui/form-field";

/**
 * A conform form posted to `action` (it works without JavaScript): its hidden
 * inputs (the `intent` first, as a rule), the form's errors (wrapped in a div
 * of `errorsClassName` when given, e.g. a grid's full row), then the fields
 * and buttons given as children. `fetcher` sends it through a fetcher instead
 * of a navigation.
 */
export function PostForm<Schema extends Record<string, unknown>>({
  form,
  action,
  hidden = {},
  className,
  testId,
  errorsClassName,
  fetcher,
  children,
}: {
  form: FormMetadata<Schema, string[]>;
  action: string;
  /** The hidden inputs, in order: name to value. */
  hidden?: Record<string, string>;
  className: string;
  testId?: string;
  errorsClassName?: string;
  fetcher?: Pick<FetcherWithComponents<unknown>, "Form">;
  children: ReactNode;
}) {
  const FormElement = fetcher ? fetcher.Form : Form;
  const errors = <FormErrors errors={form.errors} id={form.errorId} />;
  return (
    <FormElement
      method="post"
      action={action}
      {...getFormProps(form)}
      className={className}
      data-testid={testId}
    >
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {errorsClassName ? <div className={errorsClassName}>{errors}</div> : errors}
      {children}
    </FormElement>
  );
}

/**
 * A form's primary submit button: disabled, and saying `pendingLabel`, while
 * the form is sent; `wide` spans the form's width.
 */
export function SubmitButton({
  pending,
  label,
  pendingLabel,
  wide = false,
}: {
  pending: boolean;
  label: string;
  pendingLabel: string;
  wide?: boolean;
}) {
  return (
    <button
      type="submit"
      className={wide ? "btn-primary w-full" : "btn-primary"}
      disabled={pending}
    >
      {pending ? pendingLabel : label}
    </button>
  );
}
