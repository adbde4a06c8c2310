import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { removeArtifact } from "~/infra/artifact-files.server";
import { CANCELLED_BY_ERASURE } from "~/lib/accounts";
import { cancelQueuedPublications } from "~/features/publishing/publications/publication-cancels.server";

/**
 * Publishing's part of an account erasure.
 *
 * At once (in the erasure's transaction): queued publications end `failed`
 * (their revision moves on, so a job already running does not record its
 * outcome over the cancel; the publish job also refuses an erased account).
 *
 * Then (the erasure job): every mint kit and export package of the creator
 * is removed, with the publications, the model releases (their PDFs), the
 * integrations (their sealed secrets go with the rows) and any OAuth
 * connection still waiting for its callback.
 */

export async function cancelPublicationsOfErasedCreator(
  trx: DB,
  userId: string,
  now: Date,
): Promise<void> {
  await cancelQueuedPublications(trx, { userId, reason: CANCELLED_BY_ERASURE, now });
}

/** The erasure job's publishing step (see above). Safe to run again. */
export async function erasePublishingDataOf(
  db: DB,
  store: FileStore,
  userId: string,
): Promise<void> {
  const rows = await db
    .selectFrom("listing_platforms")
    .select(["id", "artifact_key"])
    .where("user_id", "=", userId)
    .execute();
  for (const row of rows) {
    await removeArtifact(store, row.artifact_key);
    await db.deleteFrom("listing_platforms").where("id", "=", row.id).execute();
  }
  const releases = await db
    .selectFrom("model_releases")
    .select(["id", "file_key"])
    .where("user_id", "=", userId)
    .execute();
  for (const release of releases) {
    await store.remove(release.file_key);
    await db.deleteFrom("model_releases").where("id", "=", release.id).execute();
  }
  await db.deleteFrom("integrations").where("user_id", "=", userId).execute();
  await db.deleteFrom("oauth_states").where("user_id", "=", userId).execute();
}
