import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { creatorStudioFiles, creatorStudioRecords } from "~/features/studio/creator-export.server";

/**
 * For the caller's data export (run by the export job): every original, style
 * and optimized file of theirs, by the path each takes inside the zip, and the
 * metadata of each upload and style (who processed it).
 */
export const creatorStudioExport = defineProcedure({
  name: "creatorStudioExport",
  access: "user",
  input: z.object({}),
  run: async ({ user, ctx }) => ({
    files: await creatorStudioFiles(ctx.db, user.id),
    ...(await creatorStudioRecords(ctx.db, user.id)),
  }),
});
