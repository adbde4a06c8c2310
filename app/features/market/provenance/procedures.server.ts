import fsp from "node:fs/promises";
import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { badRequest, unprocessable } from "~/infra/errors.server";
import { receiveFileUpload } from "~/infra/uploads/receive-upload.server";
import { sweepScratchSoon } from "~/infra/uploads/scratch-sweep.server";
import { MAX_UPLOAD_BYTES } from "~/lib/limits";
import { PROVENANCE_FIELD, type ProvenanceReport } from "~/lib/content-credentials";
import { checkContentCredentials } from "~/engines/provenance/credentials-check.server";

/**
 * The public Content Credentials check (POST /api/provenance/check and the
 * form on /provenance): anyone sends a file (multipart, the field `file`, at
 * most 10 MB) and reads whether it carries a C2PA manifest, whether that
 * validates, who signed it and how the file was made. The file is read apart
 * from the server (app/engines/provenance/credentials-check.server.ts) and
 * kept nowhere: its scratch copy is removed before the answer.
 */

export const PROVENANCE_UPLOAD_MESSAGES = {
  tooLarge: "This file is larger than 10 MB, the most the check takes.",
  missing: `Choose a file to check (in the form field named "${PROVENANCE_FIELD}").`,
  notMultipart: `Send the file as multipart/form-data, in a form field named "${PROVENANCE_FIELD}".`,
};
export const NOT_AN_IMAGE =
  "This file is not a JPEG, PNG or WebP image: Content Credentials can be checked in those three formats.";
export const DAMAGED_FILE =
  "This image is damaged or cut short: its structure cannot be read, so its Content Credentials cannot be checked.";
export const BEYOND_LIMITS =
  "This file's Content Credentials could not be read within the check's limits: they are too large, nested too deep, or took too long to read.";

export const checkProvenance = defineProcedure({
  name: "market.checkProvenance",
  access: "public",
  input: z.object({}),
  async run({ ctx }): Promise<ProvenanceReport> {
    if (!ctx.upload)
      throw new Error("market.checkProvenance is called with the request body (ctx.upload)");
    const store = ctx.files;
    sweepScratchSoon(await store.scratchDir());
    const upload = await receiveFileUpload(ctx.upload, {
      field: PROVENANCE_FIELD,
      maxFileBytes: MAX_UPLOAD_BYTES,
      scratchPath: () => store.scratchPath(),
      messages: PROVENANCE_UPLOAD_MESSAGES,
    });
    let bytes: Buffer;
    try {
      bytes = await fsp.readFile(upload.path);
    } finally {
      await fsp.rm(upload.path, { force: true });
    }
    const check = await checkContentCredentials(bytes);
    if (check.read) return check.report;
    if (check.reason === "not-an-image") throw badRequest(NOT_AN_IMAGE);
    if (check.reason === "damaged") throw unprocessable(DAMAGED_FILE);
    throw unprocessable(BEYOND_LIMITS);
  },
});
