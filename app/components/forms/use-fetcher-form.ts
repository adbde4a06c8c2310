import { useEffect, useRef } from "react";
import { useFetcher } from "@remix-run/react";
import { useForm } from "@conform-to/react";
import type { DefaultValue, Submission } from "@conform-to/react";
import { useToast } from "~/components/toaster";
import type { FlashMessage } from "~/lib/flash";
import type { ClientValidators } from "~/lib/client-validators";
import { isSubmissionResult } from "./fetcher-answers";
import { useDeferredValidation } from "./use-deferred-validation";

/** The fields (Schema) and the parsed value (Value) of a client validator's submission. */
type ValidatorSchema<Name extends keyof ClientValidators> =
  ReturnType<ClientValidators[Name]> extends Submission<infer Schema, string[], infer _Value>
    ? Schema extends Record<string, unknown>
      ? Schema
      : never
    : never;
type ValidatorValue<Name extends keyof ClientValidators> =
  ReturnType<ClientValidators[Name]> extends Submission<infer _Schema, string[], infer Value> ? Value : never;
type ValidatorSubmission<Name extends keyof ClientValidators> = Submission<ValidatorSchema<Name>, string[], ValidatorValue<Name>>;

export interface FetcherFormOptions<Name extends keyof ClientValidators> {
  /** The form's id (conform derives the fields' ids from it). */
  id: string;
  /** The fetcher's key; the form's id when not given. */
  fetcherKey?: string;
  /** Which of ~/lib/client-validators checks the form in the browser once it has loaded. */
  validator: Name;
  /** The action's answer when the form was posted without JavaScript (the page's action data). */
  pageResult?: unknown;
  defaultValue?: DefaultValue<ValidatorSchema<Name>>;
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
export function useFetcherForm<Name extends keyof ClientValidators>({
  id,
  fetcherKey = id,
  validator,
  pageResult,
  defaultValue,
  invalidSubmitToast,
  onAnswer,
  answerWhenIdle = false,
}: FetcherFormOptions<Name>) {
  const toast = useToast();
  const fetcher = useFetcher({ key: fetcherKey });
  const fetched = isSubmissionResult(fetcher.data) ? fetcher.data : undefined;
  const lastResult = fetched ?? (isSubmissionResult(pageResult) ? pageResult : undefined);

  const validate = useDeferredValidation(validator) as ((formData: FormData) => ValidatorSubmission<Name>) | undefined;
  const [form, fields] = useForm<ValidatorSchema<Name>, ValidatorValue<Name>>({
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
