import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { unsupportedMedia } from "~/infra/errors.server";
import type { UploadBody } from "~/infra/uploads/receive-upload.server";
import { receiveFileUpload } from "~/infra/uploads/receive-upload.server";
import { sweepScratchSoon } from "~/infra/uploads/scratch-sweep.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import { INVALID_FILE_TYPE, MAX_UPLOAD_BYTES, UPLOAD_FIELD, UPLOAD_MESSAGES } from "~/lib/limits";
import { NotAnAvatarImageError, storeAvatar } from "~/features/accounts/profile/avatar.server";

/**
 * Streams a multipart body to the data volume under the uploads' limit (413
 * past it, 415 for bytes that are not an image), then stores it as the
 * user's square photo without metadata (avatar.server.ts).
 */
export async function receiveAvatarUpload(
  db: DB,
  files: FileStore,
  config: Config,
  args: { userId: string; upload: UploadBody; now: Date },
): Promise<void> {
  sweepScratchSoon(await files.scratchDir());
  const upload = await receiveFileUpload(args.upload, {
    field: UPLOAD_FIELD,
    maxFileBytes: MAX_UPLOAD_BYTES,
    scratchPath: () => files.scratchPath(),
    messages: UPLOAD_MESSAGES,
    admit: () => ensureFreeSpace(config),
  });
  try {
    await storeAvatar(db, files, { userId: args.userId, sourcePath: upload.path, now: args.now });
  } catch (error) {
    if (error instanceof NotAnAvatarImageError)
      throw unsupportedMedia(INVALID_FILE_TYPE.description);
    throw error;
  }
}
