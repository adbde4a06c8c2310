import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { CANCELLED_BY_ERASURE } from "~/lib/accounts";

/**
 * The studio's part of an account erasure.
 *
 * At once (in the erasure's transaction): styles waiting or in progress end
 * `failed`. A style job already running sees the erased account and stores
 * nothing (stylize-job.server.ts: its conditional update finds the style no
 * longer processing and removes the file it just wrote).
 *
 * Then (the erasure job, after publishing and the marketplace have let go of
 * the images): every original, style and optimized file of the creator is
 * removed with its rows, except a file a buyer paid for (`keep`), and the
 * quota's usage rows go.
 */

export async function cancelStylesOfErasedCreator(
  trx: DB,
  userId: string,
  now: Date,
): Promise<void> {
  await trx
    .updateTable("stylized_images")
    .set({ status: "failed", error: CANCELLED_BY_ERASURE, updated_at: now.toISOString() })
    .where("user_id", "=", userId)
    .where("status", "in", ["pending", "processing"])
    .execute();
}

/** The erasure job's studio step (see above). Safe to run again. */
export async function eraseStudioDataOf(
  db: DB,
  store: FileStore,
  { userId, keep }: { userId: string; keep: ReadonlySet<string> },
): Promise<void> {
  const removeUnlessBought = async (key: string | null) => {
    if (key && !keep.has(key)) await store.remove(key);
  };
  const images = await db
    .selectFrom("images")
    .select(["id", "file_key"])
    .where("user_id", "=", userId)
    .execute();
  const styles = await db
    .selectFrom("stylized_images")
    .select(["id", "file_key", "optimized_file_key"])
    .where("user_id", "=", userId)
    .execute();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("stylized_images").where("user_id", "=", userId).execute();
    await trx.deleteFrom("images").where("user_id", "=", userId).execute();
    await trx.deleteFrom("usage_events").where("user_id", "=", userId).execute();
  });
  for (const style of styles) {
    await removeUnlessBought(style.file_key);
    await removeUnlessBought(style.optimized_file_key);
  }
  for (const image of images) await removeUnlessBought(image.file_key);
}
