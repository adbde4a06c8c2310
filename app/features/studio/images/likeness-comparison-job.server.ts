import { z } from "zod";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import type { JobHandler } from "~/infra/jobs/job-worker.server";
import { enqueueJob } from "~/infra/jobs/job-queue.server";
import { findVerifiedFace } from "~/features/accounts/public.server";
import { likenessAgainst } from "~/features/studio/images/likeness.server";

/**
 * Uploads made before a creator verified their face (or compared with an
 * earlier face) are compared again with the new one, in the background: one
 * pass of the face models per upload, about a quarter of a second each, too
 * long for the request that verifies. An upload whose original the retention
 * already removed cannot be compared and stays "unverified" (upload it again).
 * A newer verification, or a removed face, makes the job stop: the newer one
 * queues its own comparison.
 */
export const COMPARE_LIKENESS_JOB = "studio.compare-likeness";

const payloadSchema = z.object({ userId: z.string(), verifiedAt: z.string() });
export type CompareLikenessPayload = z.infer<typeof payloadSchema>;

/** Queues the comparison of the creator's uncompared uploads with the face verified at `verifiedAt`. */
export async function queueLikenessComparison(
  db: DB,
  args: { userId: string; verifiedAt: Date },
): Promise<void> {
  await enqueueJob(db, {
    kind: COMPARE_LIKENESS_JOB,
    payload: {
      userId: args.userId,
      verifiedAt: args.verifiedAt.toISOString(),
    } satisfies CompareLikenessPayload,
    now: args.verifiedAt,
    userId: args.userId,
  });
}

/** Compares each uncompared upload still held; answers how many were compared. */
export async function compareUploadsWithVerifiedFace(
  db: DB,
  store: FileStore,
  payload: CompareLikenessPayload,
  signal?: AbortSignal,
): Promise<number> {
  const faceOf = async () => {
    const face = await findVerifiedFace(db, payload.userId);
    return face && face.verifiedAt === payload.verifiedAt ? face : null;
  };
  const face = await faceOf();
  if (!face) return 0;
  const uploads = await db
    .selectFrom("images")
    .select(["id", "file_key"])
    .where("user_id", "=", payload.userId)
    .where("likeness", "is", null)
    .where("original_removed_at", "is", null)
    .orderBy("created_at", "desc")
    .execute();
  let compared = 0;
  for (const upload of uploads) {
    if (signal?.aborted) break;
    let bytes: Buffer;
    try {
      bytes = await store.read(upload.file_key);
    } catch {
      continue; // removed meanwhile (deleted, or the retention's sweep)
    }
    const likeness = await likenessAgainst(face.descriptor, bytes);
    if (likeness === null) continue;
    // Written only while this face is still the verified one (a newer one forgot this comparison).
    if (!(await faceOf())) break;
    await db
      .updateTable("images")
      .set({ likeness })
      .where("id", "=", upload.id)
      .where("likeness", "is", null)
      .execute();
    compared++;
  }
  return compared;
}

export function compareLikenessJobHandler(deps: {
  store: FileStore;
}): JobHandler<CompareLikenessPayload> {
  return {
    parse: (payload) => payloadSchema.parse(payload),
    async run(payload, context) {
      await compareUploadsWithVerifiedFace(context.db, deps.store, payload, context.signal);
    },
  };
}
