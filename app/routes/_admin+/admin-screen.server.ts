import { json } from "@remix-run/node";
import type { z } from "zod";
import type { Access, Procedure } from "~/infra/procedure.server";
import { redirectWithFlash } from "~/web/flash.server";
import { flashRefusal, intent } from "~/web/screen-action.server";
import type { ScreenIntent } from "~/web/screen-action.server";

/** What the admin screens answer a post with an intent they do not know. */
export function unknownAdminIntent(): never {
  throw json({ message: "Unknown action" }, { status: 400 });
}

/**
 * An admin button that runs a procedure and says how it went in a flash: a refusal lands on
 * `refusedAt` titled `refused.title`, saying the refusal's message (`refused.otherwise` when it
 * has none); a success lands on `doneAt` (`refusedAt` unless given) saying `done(result)`.
 */
export function flashIntent<A extends Access, S extends z.ZodType, R>(spec: {
  procedure: Procedure<A, S, R>;
  refusedAt: string;
  refused: { title: string; otherwise: string };
  doneAt?: string;
  done: (result: Awaited<R>) => { title: string; description: string };
}): ScreenIntent {
  return intent({
    procedure: spec.procedure,
    reply: flashRefusal(spec.refusedAt, (refusal) => ({
      kind: "error",
      title: spec.refused.title,
      description: refusal.message || spec.refused.otherwise,
    })),
    onSuccess: ({ result }) =>
      redirectWithFlash(spec.doneAt ?? spec.refusedAt, { kind: "success", ...spec.done(result) }),
  });
}

/** Awaits every value of `pending` at once (as Promise.all), answering them under the same names. */
export async function allOf<T extends Record<string, unknown>>(
  pending: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const entries = await Promise.all(
    Object.entries(pending).map(async ([name, value]) => [name, await value] as const),
  );
  return Object.fromEntries(entries) as { [K in keyof T]: Awaited<T[K]> };
}
