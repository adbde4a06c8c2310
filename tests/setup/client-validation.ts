import { act } from "@testing-library/react";
import { vi } from "vitest";

/**
 * Forms validate in the browser once their schema and the validation code have
 * loaded, just after the page rendered (app/ui/forms/use-deferred-validation.ts);
 * until then the server validates. Tests of the client messages wait for it,
 * as a person does by the time they have filled in a form.
 */
export async function clientValidationLoaded(): Promise<void> {
  await act(async () => {
    // The schema modules the rendered forms started to import...
    await vi.dynamicImportSettled();
    // ...and the hook's own promise, which sets the validator once they are in.
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}
