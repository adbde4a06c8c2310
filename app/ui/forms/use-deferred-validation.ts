import { useEffect, useState } from "react";
import type { z } from "zod";
import type { ZodValidator } from "~/ui/forms/zod-validator";

/**
 * Loads a form's zod schema with a dynamic `import()`, e.g.
 * `() => import("~/features/market/checkout/checkout-schema").then((m) => m.customerInfoSchema)`.
 * Define it at module level: a new loader on every render would load the
 * schema again each time.
 */
export type SchemaLoader<Schema extends z.ZodType> = () => Promise<Schema>;

/**
 * The client validator for the schema `loadSchema` answers, once the schema
 * and the validation code have loaded after the page rendered; undefined
 * before that (and on the server), when conform leaves validation to the
 * server. Keeps zod out of every page's first download.
 */
export function useDeferredValidation<Schema extends z.ZodType>(
  loadSchema: SchemaLoader<Schema>,
): ZodValidator<Schema> | undefined {
  const [validator, setValidator] = useState<ZodValidator<Schema>>();
  useEffect(() => {
    let current = true;
    // The validator module first: it sets zod's configuration (no eval under our CSP), which
    // must be in place before a schema module builds its schemas.
    void import("~/ui/forms/zod-validator").then(async ({ zodValidator }) => {
      const schema = await loadSchema();
      if (current) setValidator(() => zodValidator(schema));
    });
    return () => {
      current = false;
    };
  }, [loadSchema]);
  return validator;
}
