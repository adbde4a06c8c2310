import type { SubmissionResult } from "@conform-to/react";

/**
 * How a form action's answer is told apart: a conform reply (the input was
 * refused) or the action's success answer, `{ ok: true, ... }`.
 */

/** A conform reply (invalid input), as opposed to the action's `{ ok: true, ... }` answer. */
export function isSubmissionResult(value: unknown): value is SubmissionResult<string[]> {
  return typeof value === "object" && value !== null && "status" in value && !("ok" in value);
}

/** The action's success answer, `{ ok: true, ... }`. */
export function isOkAnswer<T extends object>(value: unknown): value is { ok: true } & T {
  return (
    typeof value === "object" &&
    value !== null &&
    "ok" in value &&
    (value as { ok: unknown }).ok === true
  );
}
