import type { z } from "zod";
import type { UserRow } from "#db/schema";
import { SUPER_ADMIN_ID } from "~/lib/accounts";
import type { CallContext } from "~/infra/call-context.server";
import { badRequest, forbidden, unauthorized } from "~/infra/errors.server";

/**
 * The typed procedure layer: an operation is declared once with who may call
 * it, its zod input schema and its function. Adapters turn it into a Remix
 * loader/action (screen-action.server.ts) or an /api handler (api-adapter.server.ts).
 */
export type Access = "public" | "user" | "admin";

export type CallerFor<A extends Access> = A extends "public" ? UserRow | null : UserRow;

export interface ProcedureArgs<A extends Access, S extends z.ZodType> {
  input: z.output<S>;
  user: CallerFor<A>;
  ctx: CallContext;
}

export interface Procedure<A extends Access, S extends z.ZodType, R> {
  name: string;
  access: A;
  input: S;
  run: (args: ProcedureArgs<A, S>) => Promise<R> | R;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyProcedure = Procedure<Access, z.ZodType, any>;
export type ProcedureResult<P> =
  P extends Procedure<Access, z.ZodType, infer R> ? Awaited<R> : never;

export function defineProcedure<A extends Access, S extends z.ZodType, R>(
  definition: Procedure<A, S, R>,
): Procedure<A, S, R> {
  return definition;
}

/** Refuses a caller the procedure does not admit (401 signed out, 403 otherwise). */
export function checkAccess(access: Access, user: UserRow | null): void {
  if (access === "public") return;
  // An erased account has no credentials left; one read in the moment of its erasure counts as signed out.
  if (!user || user.erased_at) throw unauthorized();
  if (user.banned) throw forbidden("This account has been suspended");
  if (access === "admin" && user.id !== SUPER_ADMIN_ID) throw forbidden("Admins only");
}

/** zod issues as the API's `fieldErrors`: one entry per field path. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "form";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return fieldErrors;
}

/** Checks access, validates the raw input and runs the procedure. */
export async function invoke<A extends Access, S extends z.ZodType, R>(
  procedure: Procedure<A, S, R>,
  caller: UserRow | null,
  rawInput: unknown,
  ctx: CallContext,
): Promise<Awaited<R>> {
  checkAccess(procedure.access, caller);
  const parsed = await procedure.input.safeParseAsync(rawInput);
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    const first = parsed.error.issues[0];
    const where = first?.path.length ? `${first.path.map(String).join(".")}: ` : "";
    throw badRequest(`Invalid input. ${where}${first?.message ?? ""}`.trim(), fieldErrors);
  }
  return await procedure.run({ input: parsed.data, user: caller as CallerFor<A>, ctx });
}

/**
 * Runs a procedure on input its schema has already parsed (the form adapter
 * parses with conform): access is still checked, the input is not parsed twice.
 */
export async function invokeParsed<A extends Access, S extends z.ZodType, R>(
  procedure: Procedure<A, S, R>,
  caller: UserRow | null,
  input: z.output<S>,
  ctx: CallContext,
): Promise<Awaited<R>> {
  checkAccess(procedure.access, caller);
  return await procedure.run({ input, user: caller as CallerFor<A>, ctx });
}
