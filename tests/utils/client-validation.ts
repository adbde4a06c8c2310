import { act } from "@testing-library/react";

/**
 * Forms validate in the browser once ~/lib/client-validators has loaded, just
 * after the page rendered (components/forms/use-deferred-validation.ts); until
 * then the server validates. Tests of the client messages wait for it, as a
 * person does by the time they have filled in a form.
 */
export async function clientValidationLoaded(): Promise<void> {
  await act(async () => {
    await import("~/lib/client-validators");
  });
}
