import type { ActionFunctionArgs, LoaderFunctionArgs, TypedResponse } from "@remix-run/node";
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
import type { FlashMessage } from "~/lib/flash";
import { redirectWithFlash } from "~/web/flash.server";
import { isCrossSiteMutation } from "~/web/same-origin.server";
import { readFormData } from "~/web/http.server";

/**
 * The one way a screen runs a procedure (cookie sessions only):
 * - `screenAction` for an action: reads the form once, picks the intent,
 *   parses the fields with conform + zod, invokes the procedure and answers
 *   a refusal (a refused HttpError or fields that do not parse) in the way
 *   the intent chose: the conform reply the form shows without JavaScript,
 *   a flash message, or the route's own answer;
 * - `screenCall` for an action whose procedure reads the request body itself
 *   (an upload) or takes no fields;
 * - `submitForm` / `submitFormAs` for an action with one form;
 * - `loadProcedure` for a loader (a refusal becomes a thrown Response for the
 *   ErrorBoundary), `attemptProcedure` for a loader that shows a refusal
 *   (`refusalResponse` throws one it does not show as `loadProcedure` would).
 * Routes never catch HttpError themselves, nor the Response `loadProcedure`
 * throws, and never `invoke` a procedure (the linter holds them to it). A post from another site is
 * refused in front of every route (`body-guard.server.ts`); one that reaches
 * an action anyway (a test calling it directly) is refused here as well,
 * answered like the intent's other refusals.
 */

/** Fields a refused form never gets back in its answer (so no password or API key is written into the page). */
const SECRET_FIELDS = ["password", "currentPassword", "newPassword", "apiKey"];

const CROSS_SITE = "Cross-site request refused";

/** Why a procedure did not run or refused: a refused HttpError, or fields that did not parse (400). */
export interface Refusal {
  status: number;
  /** The first message: the refusal's own, else the first field error. */
  message: string;
  fieldErrors?: Record<string, string[]>;
  headers?: Record<string, string>;
  /** The HttpError the procedure threw; null when the form did not parse or the post came from another site. */
  error: HttpError | null;
}

type Answer = Response | Promise<Response>;

/** A refusal answered as a flash message on the page at `to` (`flashRefusal` makes one). */
export interface FlashReply {
  flashTo: string;
  message: FlashMessage | ((refusal: Refusal) => FlashMessage);
}

/**
 * How a screen answers a refusal:
 * - "form": the conform reply the form shows (a post from another site too);
 * - a `FlashReply`: a flash message on a page (a post from another site too);
 * - the route's own answer for a refused procedure or fields that did not
 *   parse; a post from another site is then answered 403 `{ message }`.
 */
export type RefusalReply =
  "form" | FlashReply | ((refusal: Refusal, asForm: () => Response) => Answer);

export function flashRefusal(to: string, message: FlashReply["message"]): FlashReply {
  return { flashTo: to, message };
}

function answerWith(
  reply: FlashReply | ((refusal: Refusal, asForm: () => Response) => Answer),
  refusal: Refusal,
  asForm: () => Response,
  crossSite = false,
): Answer {
  if (typeof reply !== "function") {
    return redirectWithFlash(
      reply.flashTo,
      typeof reply.message === "function" ? reply.message(refusal) : reply.message,
    );
  }
  return crossSite ? crossSiteRefusal() : reply(refusal, asForm);
}

/** The answer to a cross-site post where the screen has no form or page to show it on. */
const crossSiteRefusal = () => json({ message: CROSS_SITE }, { status: 403 });

export interface Done<R> {
  result: R;
  user: UserRow | null;
  ctx: CallContext;
  /** The form as posted. */
  form: FormData;
}

interface IntentSpec<A extends Access, S extends z.ZodType, R, F extends z.ZodType> {
  procedure: Procedure<A, S, R>;
  /** The schema the form's fields are parsed with: the procedure's own input unless given. */
  fields?: F;
  /** The procedure's input from the parsed fields and the form: the fields themselves unless given. */
  input?: (fields: z.output<F>, form: FormData) => z.output<S>;
  /**
   * The procedure's input taken from the form as posted, unparsed: the
   * procedure's own schema checks it (and says what is wrong in its words).
   * For a button whose values are not a form of fields.
   */
  rawInput?: (form: FormData) => unknown;
  handedOver?: HandedOver;
  onSuccess: (done: Done<Awaited<R>>) => Answer;
  reply: RefusalReply;
  /** An error other than a refusal (a provider that did not answer, say); thrown on unless given. */
  unexpected?: (error: unknown) => Answer;
}

/** What the answer to a refused form needs of conform's submission. */
interface ParsedForm {
  reply(options: {
    formErrors?: string[];
    fieldErrors?: Record<string, string[]>;
    hideFields?: string[];
  }): SubmissionResult<string[]>;
}

/** One intent of a screen action: `intent({...})` runs a procedure, `plainIntent(...)` answers without one. */
export interface ScreenIntent {
  run(
    args: ActionFunctionArgs,
    form: FormData,
    user: UserRow | null,
    handedOver: HandedOver,
  ): Promise<Response>;
  /** The answer to a post from another site (a request the HTTP front let through, say one with no browser in between). */
  refuseCrossSite(form: FormData): Promise<Response>;
}

/** An intent that runs a procedure; `intent({...})` keeps its procedure, fields and result types. */
export function intent<A extends Access, S extends z.ZodType, R, F extends z.ZodType = S>(
  spec: IntentSpec<A, S, R, F>,
): ScreenIntent {
  const schema = (spec.fields ?? spec.procedure.input) as F;
  const refuse = async (submission: ParsedForm, refusal: Refusal, crossSite = false) => {
    const asForm = () =>
      json(
        submission.reply({
          formErrors: [refusal.message],
          fieldErrors: refusal.fieldErrors,
          hideFields: SECRET_FIELDS,
        }),
        {
          status: refusal.status,
          headers: refusal.headers,
        },
      );
    return spec.reply === "form" ? asForm() : answerWith(spec.reply, refusal, asForm, crossSite);
  };
  return {
    refuseCrossSite: async (form) =>
      refuse(
        parseWithZod(form, { schema }),
        { status: 403, message: CROSS_SITE, error: null },
        true,
      ),
    run: async (args, form, user, handedOver) => {
      const submission = parseWithZod(form, { schema });
      const ctx = callContext(args.request, args.context, { ...handedOver, ...spec.handedOver });
      const settle = async (call: () => Promise<Awaited<R>>) => {
        let result: Awaited<R>;
        try {
          result = await call();
        } catch (error) {
          if (error instanceof HttpError) return refuse(submission, refusalOf(error));
          if (spec.unexpected) return spec.unexpected(error);
          throw error;
        }
        return spec.onSuccess({ result, user, ctx, form });
      };
      const { rawInput, input } = spec;
      if (rawInput) return settle(() => invoke(spec.procedure, user, rawInput(form), ctx));
      if (submission.status !== "success") {
        const asForm = () => json(submission.reply({ hideFields: SECRET_FIELDS }), { status: 400 });
        if (spec.reply === "form") return asForm();
        const errors = Object.values(submission.error ?? {}).flatMap((list) => list ?? []);
        return answerWith(
          spec.reply,
          { status: 400, message: errors[0] ?? "", error: null },
          asForm,
        );
      }
      const fields = submission.value as z.output<F>;
      return settle(() =>
        invokeParsed(
          spec.procedure,
          user,
          input ? input(fields, form) : (fields as unknown as z.output<S>),
          ctx,
        ),
      );
    },
  };
}

/** An intent the screen answers itself, running no procedure (say, a cart change kept in a cookie). */
export function plainIntent(
  answer: (form: FormData, user: UserRow | null) => Answer,
): ScreenIntent {
  return {
    refuseCrossSite: async () => crossSiteRefusal(),
    run: async (_args, form, user) => answer(form, user),
  };
}

function refusalOf(error: HttpError): Refusal {
  return {
    status: error.status,
    message: error.message,
    fieldErrors: error.fieldErrors,
    headers: error.headers,
    error,
  };
}

/**
 * A screen action with several intents: the form's `intent` field picks one;
 * an intent the screen does not know gets `unknownIntent`'s answer.
 * `T` is the JSON a refused form answers with (what `useActionData` sees).
 */
export async function screenAction<T = SubmissionResult<string[]>>(
  args: ActionFunctionArgs,
  options: {
    /** The signed-in user the screen's guard returned (null for a public screen); read from the session unless given. */
    user?: UserRow | null;
    handedOver?: HandedOver;
    intents: Record<string, ScreenIntent>;
    /** The answer to a form whose intent the screen does not know, or the intent such a form runs. */
    unknownIntent: ((form: FormData) => Answer) | ScreenIntent;
    /** The form, when the route had to read it first. */
    form?: FormData;
  },
): Promise<TypedResponse<T>> {
  const form = options.form ?? (await readFormData(args.request));
  const name = String(form.get("intent") ?? "");
  const { unknownIntent } = options;
  const chosen = Object.hasOwn(options.intents, name)
    ? options.intents[name]
    : typeof unknownIntent === "function"
      ? undefined
      : unknownIntent;
  const user = options.user !== undefined ? options.user : await getWebUser(args.request);
  let answer: Response;
  if (!chosen) answer = await (unknownIntent as (form: FormData) => Answer)(form);
  else if (isCrossSiteMutation(args.request)) answer = await chosen.refuseCrossSite(form);
  else answer = await chosen.run(args, form, user, options.handedOver ?? {});
  return answer as TypedResponse<T>;
}

/**
 * A screen action that runs one procedure without a form of fields: an upload
 * the procedure reads from the request itself, or a button whose input the
 * route knows. Refusals are answered by `reply`.
 */
export async function screenCall<A extends Access, S extends z.ZodType, R>(
  args: ActionFunctionArgs,
  spec: {
    procedure: Procedure<A, S, R>;
    input: unknown;
    user?: UserRow | null;
    handedOver?: HandedOver;
    onSuccess: (done: Omit<Done<Awaited<R>>, "form">) => Answer;
    /** The answer to a refusal; a post from another site is answered 403 `{ message }` without it. */
    reply: FlashReply | ((refusal: Refusal) => Answer);
    unexpected?: (error: unknown) => Answer;
  },
): Promise<Response> {
  if (isCrossSiteMutation(args.request)) return crossSiteRefusal();
  const user = spec.user !== undefined ? spec.user : await getWebUser(args.request);
  const ctx = callContext(args.request, args.context, spec.handedOver);
  let result: Awaited<R>;
  try {
    result = await invoke(spec.procedure, user, spec.input, ctx);
  } catch (error) {
    if (error instanceof HttpError)
      return answerWith(spec.reply, refusalOf(error), () =>
        json({ message: error.message }, { status: error.status, headers: error.headers }),
      );
    if (spec.unexpected) return spec.unexpected(error);
    throw error;
  }
  return spec.onSuccess({ result, user, ctx });
}

export type FormOutcome<R> =
  | { ok: true; result: R; user: UserRow | null; ctx: CallContext; formData: FormData }
  | { ok: false; response: ReturnType<typeof json<SubmissionResult<string[]>>> };

/** A screen action with one form: the procedure's input is the form's fields; a refusal is the form's conform reply. */
export async function submitForm<A extends Access, S extends z.ZodType, R>(
  procedure: Procedure<A, S, R>,
  args: ActionFunctionArgs,
  options: { formData?: FormData; user?: UserRow | null; handedOver?: HandedOver } = {},
): Promise<FormOutcome<Awaited<R>>> {
  return submitFormAs(procedure, args, {
    ...options,
    schema: procedure.input,
    toInput: (value) => value as z.output<S>,
  });
}

/**
 * `submitForm` for a form whose fields are a part of the procedure's input:
 * the form is parsed with its own schema (so its fields show their errors
 * without JavaScript), and `toInput` builds the procedure's input from the
 * parsed fields and what the route knows (say, the cart cookie).
 */
export async function submitFormAs<A extends Access, S extends z.ZodType, R, F extends z.ZodType>(
  procedure: Procedure<A, S, R>,
  args: ActionFunctionArgs,
  options: {
    schema: F;
    toInput: (value: z.output<F>) => z.output<S>;
    formData?: FormData;
    user?: UserRow | null;
    handedOver?: HandedOver;
  },
): Promise<FormOutcome<Awaited<R>>> {
  const formData = options.formData ?? (await readFormData(args.request));
  const user = options.user !== undefined ? options.user : await getWebUser(args.request);
  let done: Done<Awaited<R>> | null = null;
  const form = intent({
    procedure,
    fields: options.schema,
    input: (fields) => options.toInput(fields),
    handedOver: options.handedOver,
    reply: "form",
    onSuccess: (success) => {
      done = success;
      return new Response(null, { status: 204 });
    },
  });
  const response = isCrossSiteMutation(args.request)
    ? await form.refuseCrossSite(formData)
    : await form.run(args, formData, user, {});
  if (done === null)
    return { ok: false, response: response as ReturnType<typeof json<SubmissionResult<string[]>>> };
  const { result, ctx } = done as Done<Awaited<R>>;
  return { ok: true, result, user, ctx, formData };
}

/** Runs a procedure for a screen loader; a refusal becomes a thrown Response for the ErrorBoundary. */
export async function loadProcedure<A extends Access, S extends z.ZodType, R>(
  procedure: Procedure<A, S, R>,
  args: LoaderFunctionArgs,
  input: unknown,
  user?: UserRow | null,
  handedOver: HandedOver = {},
): Promise<Awaited<R>> {
  const outcome = await attemptProcedure(procedure, args, input, user, handedOver);
  if (outcome.ok) return outcome.result;
  throw refusalResponse(outcome.refusal);
}

/**
 * The Response a loader throws for a refusal its page does not show (the
 * ErrorBoundary does): what `loadProcedure` throws. For a page that shows
 * some refusals from `attemptProcedure` and leaves the rest (a 5xx, say) to
 * its ErrorBoundary.
 */
export function refusalResponse(refusal: Refusal): Response {
  return json({ message: refusal.message }, { status: refusal.status, headers: refusal.headers });
}

/** Runs a procedure for a screen that shows a refusal itself (say, a link that has expired). */
export async function attemptProcedure<A extends Access, S extends z.ZodType, R>(
  procedure: Procedure<A, S, R>,
  { request, context }: LoaderFunctionArgs,
  input: unknown,
  user?: UserRow | null,
  handedOver: HandedOver = {},
): Promise<
  { ok: true; result: Awaited<R> } | { ok: false; refusal: Refusal & { error: HttpError } }
> {
  const caller = user !== undefined ? user : await getWebUser(request);
  try {
    return {
      ok: true,
      result: await invoke(procedure, caller, input, callContext(request, context, handedOver)),
    };
  } catch (error) {
    if (error instanceof HttpError) return { ok: false, refusal: { ...refusalOf(error), error } };
    throw error;
  }
}
