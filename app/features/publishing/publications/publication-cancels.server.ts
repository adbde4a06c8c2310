import type { DB } from "~/infra/db.server";

/**
 * Calls off the creator's queued publications (an erasure, a ban): they end
 * `failed` with `reason`, and their revision moves on, so a publish job
 * already running does not record its outcome over the cancel.
 */
export async function cancelQueuedPublications(
  trx: DB,
  { userId, reason, now }: { userId: string; reason: string; now: Date },
): Promise<void> {
  await trx
    .updateTable("listing_platforms")
    .set((eb) => ({
      status: "failed",
      url: null,
      last_error: reason,
      revision: eb(eb.ref("revision"), "+", 1),
      updated_at: now.toISOString(),
    }))
    .where("user_id", "=", userId)
    .where("status", "=", "queued")
    .execute();
}
