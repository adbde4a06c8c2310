import type { StylizedImageRow } from "#db/schema";
import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import type { UploadBody } from "~/infra/uploads/receive-upload.server";
import { receiveFileUpload } from "~/infra/uploads/receive-upload.server";
import { sweepScratchSoon } from "~/infra/uploads/scratch-sweep.server";
import {
  adoptUploadedRelease,
  MAX_RELEASE_BYTES,
} from "~/features/publishing/releases/model-releases.server";

/** The form field an uploaded release arrives in (multipart/form-data). */
export const RELEASE_FIELD = "release";
const RELEASE_UPLOAD_MESSAGES = {
  tooLarge: "Please select a PDF smaller than 10 MB.",
  missing: `Choose the signed release to upload (a PDF in the form field named "${RELEASE_FIELD}").`,
  notMultipart: `Send the release as multipart/form-data, in a form field named "${RELEASE_FIELD}".`,
};

/** Streams a signed release (a PDF in the field `release`) to the data volume under its limit and keeps it as the image's model release. */
export async function receiveReleaseUpload(
  db: DB,
  files: FileStore,
  config: Config,
  args: { userId: string; image: StylizedImageRow; upload: UploadBody; now: Date },
) {
  sweepScratchSoon(await files.scratchDir());
  const upload = await receiveFileUpload(args.upload, {
    field: RELEASE_FIELD,
    maxFileBytes: MAX_RELEASE_BYTES,
    scratchPath: () => files.scratchPath(),
    messages: RELEASE_UPLOAD_MESSAGES,
    admit: () => ensureFreeSpace(config),
  });
  return adoptUploadedRelease(db, files, {
    userId: args.userId,
    image: args.image,
    path: upload.path,
    now: args.now,
  });
}
