import type { DB } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { cancelOpenStyles } from "~/features/studio/stylized-images.server";
import { removeExpiredOriginals } from "~/features/studio/original-retention.server";

/** What the studio lends other features and the boot: plain service calls, not operations of a caller. */

/** A withdrawn consent to face processing: the creator's waiting styles end, with `reason`. */
export function cancelStylesOfCreator(db: DB, args: { userId: string; reason: string; now: Date }): Promise<number> {
  return cancelOpenStyles(db, args);
}

/** The daily retention sweep of ORIGINALS_RETENTION_DAYS (original-retention.server.ts); nothing when originals are kept. */
export async function sweepExpiredOriginals(db: DB, args: { retentionDays: number | undefined; now: Date }): Promise<string[]> {
  if (args.retentionDays === undefined) return [];
  return removeExpiredOriginals(db, getFileStore(), { retentionDays: args.retentionDays, now: args.now });
}

export { cancelStylesOfErasedCreator, eraseStudioDataOf } from "~/features/studio/creator-erasure.server";
