import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import type { z } from "zod";
import type { UserRow } from "#db/schema";
import type { Access, Procedure } from "~/infra/procedure.server";
import { invoke, invokeParsed } from "~/infra/procedure.server";
import { getWebUser } from "~/web/auth.server";
import { callContext } from "~/web/request-context.server";
import type { CallContext, HandedOver } from "~/infra/call-context.server";
import { HttpError } from "~/infra/errors.server";
import { isCrossSiteMutation } from "~/web/same-origin.server";
import { readFormData } from "~/web/http.server";

/**
 * Remix adapters of the procedure layer, for screens (cookie sessions only).
 * Form actions parse with conform, so a form shows its errors without JS.
 */

/** Fields a refused form never gets back in its answer (so no password is written into the page). */
const SECRET_FIELDS = ["password", "currentPassword", "newPassword"];

export type FormOutcome<R> =
  | { ok: true; result: R; user: UserRow | null; ctx: CallContext; formData: FormData }
  | { ok: false; response: ReturnType<typeof json<SubmissionResult<string[]>>> };

export async function submitForm<A extends Access, S extends z.ZodType, R>(
  procedure: Procedure<A, S, R>,
  args: ActionFunctionArgs,
  options: { formData?: FormData; user?: UserRow | null; handedOver?: HandedOver } = {},
): Promise<FormOutcome<Awaited<R>>> {
  return submitFormAs(procedure, args, { ...options, schema: procedure.input, toInput: (value) => value as z.output<S> });
}

/**
 * `submitForm` for a form whose fields are a part of the procedure's input:
 * the form is parsed with its own schema (so its fields show their errors
 * without JavaScript), and `toInput` builds the procedure's input from the
 * parsed fields and what the route knows (say, the cart cookie).
 */
export async function submitFormAs<A extends Access, S extends z.ZodType, R, F extends z.ZodType>(
  procedure: Procedure<A, S, R>,
  { request, context }: ActionFunctionArgs,
  options: {
    schema: F;
    toInput: (value: z.output<F>) => z.output<S>;
    formData?: FormData;
    user?: UserRow | null;
    handedOver?: HandedOver;
  },
): Promise<FormOutcome<Awaited<R>>> {
  const formData = options.formData ?? (await readFormData(request));
  const submission = parseWithZod(formData, { schema: options.schema });
  if (isCrossSiteMutation(request)) {
    return {
      ok: false,
      response: json(submission.reply({ formErrors: ["Cross-site request refused"], hideFields: SECRET_FIELDS }), {
        status: 403,
      }),
    };
  }
  if (submission.status !== "success") {
    return { ok: false, response: json(submission.reply({ hideFields: SECRET_FIELDS }), { status: 400 }) };
  }
  const user = options.user !== undefined ? options.user : await getWebUser(request);
  const ctx = callContext(request, context, options.handedOver);
  try {
    const result = await invokeParsed(procedure, user, options.toInput(submission.value as z.output<F>), ctx);
    return { ok: true, result, user, ctx, formData };
  } catch (error) {
    if (error instanceof HttpError) {
      return {
        ok: false,
        response: json(
          submission.reply({
            formErrors: [error.message],
            fieldErrors: error.fieldErrors,
            hideFields: SECRET_FIELDS,
          }),
          { status: error.status, headers: error.headers },
        ),
      };
    }
    throw error;
  }
}

/** Runs a procedure for a screen loader; its HttpErrors become thrown Responses for the ErrorBoundary. */
export async function loadProcedure<A extends Access, S extends z.ZodType, R>(
  procedure: Procedure<A, S, R>,
  { request, context }: LoaderFunctionArgs,
  input: unknown,
  user?: UserRow | null,
  handedOver: HandedOver = {},
): Promise<Awaited<R>> {
  const caller = user !== undefined ? user : await getWebUser(request);
  try {
    return await invoke(procedure, caller, input, callContext(request, context, handedOver));
  } catch (error) {
    if (error instanceof HttpError) {
      throw json({ message: error.message }, { status: error.status, headers: error.headers });
    }
    throw error;
  }
}
