import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { cancelOpenStyles } from "~/features/studio/styles/stylized-images.server";
import { removeExpiredOriginals } from "~/features/studio/images/original-retention.server";

/** What the studio hands other features and the boot: plain service calls on its tables, not operations of a caller. */

export {
  cancelOpenStyles,
  ownStylizedImage,
  studioCountsOf,
  uploadSizeOfStylized,
} from "~/features/studio/styles/stylized-images.server";
export {
  listEveryImage,
  NotAnImageError,
  readUploadedPicture,
} from "~/features/studio/images/images.server";
export { forgetLikenessOf } from "~/features/studio/images/likeness.server";
export { queueLikenessComparison } from "~/features/studio/images/likeness-comparison-job.server";
export {
  cancelStylesOfErasedCreator,
  eraseStudioDataOf,
} from "~/features/studio/creator-erasure.server";

/** A withdrawn consent to face processing: the creator's waiting styles end, with `reason`. */
export function cancelStylesOfCreator(
  db: DB,
  args: { userId: string; reason: string; now: Date },
): Promise<number> {
  return cancelOpenStyles(db, args);
}

/** The daily retention sweep of ORIGINALS_RETENTION_DAYS (original-retention.server.ts); nothing when originals are kept. */
export async function sweepExpiredOriginals(
  db: DB,
  files: FileStore,
  args: { retentionDays: number | undefined; now: Date },
): Promise<string[]> {
  if (args.retentionDays === undefined) return [];
  return removeExpiredOriginals(db, files, { retentionDays: args.retentionDays, now: args.now });
}
