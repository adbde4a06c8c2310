import { useEffect, useState } from "react";
import type { ClientValidators } from "~/lib/client-validators";

/**
 * The named client validator, once its module has loaded after the page
 * rendered; undefined before that (and on the server), when conform leaves
 * validation to the server. Keeps zod out of every page's first download.
 */
export function useDeferredValidation<Name extends keyof ClientValidators>(
  name: Name,
): ClientValidators[Name] | undefined {
  const [validator, setValidator] = useState<ClientValidators[Name]>();
  useEffect(() => {
    let current = true;
    void import("~/lib/client-validators").then(({ clientValidators }) => {
      if (current) setValidator(() => clientValidators[name]);
    });
    return () => {
      current = false;
    };
  }, [name]);
  return validator;
}
