import { useNavigation } from "@remix-run/react";

/** What a refused plain form's last answer said, by field ("" for the form as a whole). */
export type RefusedFormErrors = Record<string, string[] | null | undefined> | null | undefined;

/** The props of a plain form that may come back refused: what the answer said, and what the form held. */
export interface RefusedFormProps {
  errors: RefusedFormErrors;
  /** What the refused form held, so it comes back filled in. */
  sent?: Record<string, unknown> | null;
}

/**
 * Reading a plain form's refusal (conform's reply without JavaScript): the
 * text a field was sent with, the values of a group of checkboxes, and the
 * first message of a field, so the form comes back filled in, each error
 * beside its field.
 */
export function refusedForm(errors: RefusedFormErrors, sent?: Record<string, unknown> | null) {
  return {
    text: (name: string) => {
      const value = sent?.[name];
      return typeof value === "string" ? value : undefined;
    },
    values: (name: string) =>
      new Set([sent?.[name]].flat().filter((value): value is string => typeof value === "string")),
    error: (name: string): string | null => errors?.[name]?.[0] ?? null,
  };
}

/**
 * A plain form of one intent on a page of several: what its refusal said
 * (`refusedForm`) and whether it is being sent now (`pending`).
 */
export function usePlainIntentForm(
  intent: string,
  errors: RefusedFormErrors,
  sent?: Record<string, unknown> | null,
) {
  const navigation = useNavigation();
  return {
    ...refusedForm(errors, sent),
    pending: navigation.state === "submitting" && navigation.formData?.get("intent") === intent,
  };
}
