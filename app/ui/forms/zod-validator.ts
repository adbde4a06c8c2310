import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { config } from "zod";
import type { z } from "zod";

// In the browser, zod would probe for eval (`new Function`) to compile faster parsers; the page's
// Content-Security-Policy forbids eval, and the refused probe is logged as a CSP issue. Forms
// are small: the plain parser is enough.
config({ jitless: true });

/**
 * Validates a form's data with a zod schema, as conform's onValidate wants it:
 * the submission's fields are what the schema takes in, its value what it
 * answers. (Spelled out as conform's Submission, not another alias, so that
 * useForm infers the fields from it.)
 */
export type ZodValidator<Schema extends z.ZodType> = (
  formData: FormData,
) => Submission<z.input<Schema>, string[], z.output<Schema>>;

/**
 * The client validator for a zod schema. Loaded with a dynamic import together
 * with the schema (use-deferred-validation.ts), so neither zod nor conform's
 * zod adapter is part of a page's first download.
 */
export function zodValidator<Schema extends z.ZodType>(schema: Schema): ZodValidator<Schema> {
  return (formData) => parseWithZod(formData, { schema });
}
