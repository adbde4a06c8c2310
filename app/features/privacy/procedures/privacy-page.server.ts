import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { privacyFacts } from "~/features/privacy/privacy-facts.server";

/** The public privacy page, from the running configuration. */
export const privacyPage = defineProcedure({
  name: "privacy.page",
  access: "public",
  input: z.object({}),
  run: ({ ctx }) => privacyFacts(ctx.config),
});
