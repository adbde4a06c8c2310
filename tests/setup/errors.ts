import { expect } from "vitest";
import { HttpError } from "~/infra/errors.server";

/** The HttpError `promise` is refused with (a promise that settles otherwise fails the test). */
export async function httpFailure(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}
