import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { DAY_MS } from "~/features/studio/styles/quotas.server";

/**
 * The originals' retention (ORIGINALS_RETENTION_DAYS): an uploaded selfie
 * older than the retention has its file removed, unless a style of it is still
 * waiting or being made (that work needs it; the next sweep takes it once the
 * work is done). The image row stays, marked `original_removed_at`, so the
 * styles made from it stay with their files; a removed original can no longer
 * be styled (requestStylization refuses it).
 */

/** When an original uploaded at `createdAt` is removed, or null when originals are kept. */
export function originalRemovalDate(
  createdAt: string,
  retentionDays: number | undefined,
): string | null {
  if (retentionDays === undefined) return null;
  return new Date(new Date(createdAt).getTime() + retentionDays * DAY_MS).toISOString();
}

/** Removes the expired originals' files; answers the ids of the originals removed. */
export async function removeExpiredOriginals(
  db: DB,
  store: FileStore,
  args: { retentionDays: number; now: Date },
): Promise<string[]> {
  const cutoff = new Date(args.now.getTime() - args.retentionDays * DAY_MS).toISOString();
  const removed: string[] = [];
  const candidates = await db
    .selectFrom("images")
    .select(["id", "file_key"])
    .where("created_at", "<", cutoff)
    .where("original_removed_at", "is", null)
    .execute();
  for (const image of candidates) {
    // One guarded UPDATE: a style asked for meanwhile keeps the original (requestStylization checks the same column).
    const marked = await db
      .updateTable("images")
      .set({ original_removed_at: args.now.toISOString() })
      .where("id", "=", image.id)
      .where("original_removed_at", "is", null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("stylized_images")
              .select("stylized_images.id")
              .whereRef("stylized_images.image_id", "=", "images.id")
              .where("stylized_images.status", "in", ["pending", "processing"]),
          ),
        ),
      )
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) continue;
    await store.remove(image.file_key);
    removed.push(image.id);
  }
  return removed;
}
