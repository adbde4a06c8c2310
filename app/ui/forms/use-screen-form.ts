import { useForm } from "@conform-to/react";
import type { DefaultValue, Submission, SubmissionResult } from "@conform-to/react";
import type { z } from "zod";
import { useDeferredValidation } from "~/ui/forms/use-deferred-validation";
import type { SchemaLoader } from "~/ui/forms/use-deferred-validation";

/** The form's fields (what the schema takes in) and the parsed value (what it answers). */
type FormFields<Schema extends z.ZodType> =
  z.input<Schema> extends Record<string, unknown> ? z.input<Schema> : never;
type FormValue<Schema extends z.ZodType> = z.output<Schema>;

export interface ScreenFormOptions<
  Schema extends z.ZodType,
  Fields extends Record<string, unknown>,
> {
  /** The form's id (conform derives the fields' ids from it). */
  id: string;
  /**
   * Loads the zod schema that checks the form in the browser once the page
   * has rendered (until then the server validates). Define it at module level.
   */
  loadSchema: SchemaLoader<Schema>;
  /** The action's conform reply for this form (the page's action data), if any. */
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: DefaultValue<Fields>;
}

/**
 * A conform form posted by a navigation (a real `<form method="post">`, so it
 * works without JavaScript): the action's reply marks the fields; the form is
 * checked on submit, then again on every input once it was submitted, by the
 * zod schema `loadSchema` answers once it has loaded after the page rendered
 * (until then the server validates).
 *
 * The fields' and the value's types are the schema's input and output unless
 * given (`Fields`, `Value`), e.g. where a field the schema takes as nullable
 * is always sent as text.
 */
export function useScreenForm<
  Schema extends z.ZodType,
  Fields extends Record<string, unknown> = FormFields<Schema>,
  Value = FormValue<Schema>,
>({ id, loadSchema, lastResult, defaultValue }: ScreenFormOptions<Schema, Fields>) {
  const validate = useDeferredValidation(loadSchema) as
    ((formData: FormData) => Submission<Fields, string[], Value>) | undefined;
  return useForm<Fields, Value>({
    id,
    lastResult,
    defaultValue,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: validate && (({ formData }) => validate(formData)),
  });
}
