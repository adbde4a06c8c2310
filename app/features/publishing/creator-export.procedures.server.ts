import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { creatorPublishingExport } from "~/features/publishing/creator-export.server";

/**
 * For the caller's data export (run by the export job): the platforms they
 * connected, by name only, and the kits and packages prepared for them.
 */
export const creatorPublishingExportProcedure = defineProcedure({
  name: "creatorPublishingExport",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => creatorPublishingExport(ctx.db, user.id),
});
