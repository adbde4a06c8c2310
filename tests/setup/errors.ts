import { expect } from "vitest";
import { HttpError } from "~/infra/errors.server";

/** The error of the class `kind` that `promise` is refused with (a promise that settles otherwise, or is refused with anything else, fails the test). */
export async function rejectionOf<E>(
  promise: Promise<unknown>,
  kind: abstract new (...args: never[]) => E,
): Promise<E> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(kind);
  return error as E;
}

/** The HttpError `promise` is refused with (a promise that settles otherwise fails the test). */
export async function httpFailure(promise: Promise<unknown>): Promise<HttpError> {
  return rejectionOf(promise, HttpError);
}
