import { useEffect, useRef } from "react";
import { useFetcher } from "@remix-run/react";
import { useForm } from "@conform-to/react";
import type { DefaultValue, Submission } from "@conform-to/react";
import { useToast } from "~/ui/toaster";
import type { FlashMessage } from "~/lib/flash";
import type { z } from "zod";
import { isSubmissionResult } from "~/ui/forms/fetcher-answers";
import { useDeferredValidation } from "~/ui/forms/use-deferred-validation";
import type { SchemaLoader } from "~/ui/forms/use-deferred-validation";

/** The form's fields (what the schema takes in) and the parsed value (what it answers). */
type FormFields<Schema extends z.ZodType> =
  z.input<Schema> extends Record<string, unknown> ? z.input<Schema> : never;
type FormValue<Schema extends z.ZodType> = z.output<Schema>;
type FormSubmission<Schema extends z.ZodType> = Submission<
  FormFields<Schema>,
  string[],
  FormValue<Schema>
>;

export interface FetcherFormOptions<Schema extends z.ZodType> {
  /** The form's id (conform derives the fields' ids from it). */
  id: string;
  /** The fetcher's key; the form's id when not given. */
  fetcherKey?: string;
  /**
   * Loads the zod schema that checks the form in the browser once the page
   * has rendered (until then the server validates). Define it at module level.
   */
  loadSchema: SchemaLoader<Schema>;
  /** The action's answer when the form was posted without JavaScript (the page's action data). */
  pageResult?: unknown;
  defaultValue?: DefaultValue<FormFields<Schema>>;
  /** The toast for a submit the client validator refuses (none when it answers nothing); re-validations while typing count as submits. */
  invalidSubmitToast?: (errors: Record<string, string[] | null>) => FlashMessage | null | undefined;
  /** Called once for each new answer of the action; the toast it answers is shown. */
  onAnswer?: (answer: unknown) => FlashMessage | null | undefined;
  /** Wait until the fetcher is idle again (the page's data reloaded too) before handling an answer. */
  answerWhenIdle?: boolean;
}

/**
 * A conform form that posts through a fetcher: the action's conform reply
 * (or, after a post without JavaScript, the page's) marks the fields; the
 * client validator loads after the page rendered (until then the server
 * validates); a refused submit and the action's answers show toasts. The form
 * itself stays a real `<form method="post">`, so it works without JavaScript.
 */
export function useFetcherForm<Schema extends z.ZodType>({
  id,
  fetcherKey = id,
  loadSchema,
  pageResult,
  defaultValue,
  invalidSubmitToast,
  onAnswer,
  answerWhenIdle = false,
}: FetcherFormOptions<Schema>) {
  const toast = useToast();
  const fetcher = useFetcher({ key: fetcherKey });
  const fetched = isSubmissionResult(fetcher.data) ? fetcher.data : undefined;
  const lastResult = fetched ?? (isSubmissionResult(pageResult) ? pageResult : undefined);

  const validate = useDeferredValidation(loadSchema) as
    ((formData: FormData) => FormSubmission<Schema>) | undefined;
  const [form, fields] = useForm<FormFields<Schema>, FormValue<Schema>>({
    id,
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    defaultValue,
    onValidate:
      validate &&
      (({ formData, submitter }) => {
        const submission = validate(formData);
        // A failing submit. conform's re-validations while typing (after the first submit) also
        // submit the form with a submitter of their own, so they come here too.
        if (invalidSubmitToast && submitter && submission.status !== "success") {
          const message = invalidSubmitToast(submission.error ?? {});
          if (message) toast(message);
        }
        return submission;
      }),
  });

  const answered = useRef<unknown>(null);
  useEffect(() => {
    const data = fetcher.data;
    if (!data || answered.current === data || (answerWhenIdle && fetcher.state !== "idle")) return;
    answered.current = data;
    const message = onAnswer?.(data);
    if (message) toast(message);
  }, [fetcher.data, fetcher.state, answerWhenIdle, onAnswer, toast]);

  return { fetcher, form, fields, pending: fetcher.state !== "idle" };
}
