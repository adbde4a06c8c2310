import type { ImageLikeness } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { getLogger } from "~/infra/logger.server";
import {
  describeFaces,
  faceSimilarity,
  SAME_PERSON_SIMILARITY,
} from "~/engines/styling/vision/face-descriptor.server";
import { findVerifiedFace } from "~/features/accounts/public.server";

/**
 * The likeness of an upload (decision record 083): each face in it is
 * compared with the creator's verified face, at upload time, in the request
 * (one pass of the face models, about a quarter of a second once they are
 * loaded). "self" when one face is theirs, "other" when faces were found and
 * none is, "none" when there is no face. Null (shown as "unverified") when the
 * creator has no verified face, or when the models failed: the upload is kept
 * either way.
 */
export async function likenessOfUpload(
  db: DB,
  userId: string,
  image: Buffer,
): Promise<ImageLikeness | null> {
  const verified = await findVerifiedFace(db, userId);
  if (!verified) return null;
  return likenessAgainst(verified.descriptor, image);
}

/** The likeness of `image` against a verified face's descriptor; null when the models failed. */
export async function likenessAgainst(
  descriptor: number[],
  image: Buffer,
): Promise<ImageLikeness | null> {
  try {
    const faces = await describeFaces(image);
    if (faces.length === 0) return "none";
    const same = faces.some(
      (face) => faceSimilarity(face.descriptor, descriptor) >= SAME_PERSON_SIMILARITY,
    );
    return same ? "self" : "other";
  } catch (error) {
    getLogger().warn("likeness: the face models failed; the upload is kept uncompared", { error });
    return null;
  }
}

/** Forgets the likeness of every upload of the creator (their verified face changed or went): "unverified" until compared again. */
export async function forgetLikenessOf(db: DB, userId: string): Promise<void> {
  await db
    .updateTable("images")
    .set({ likeness: null })
    .where("user_id", "=", userId)
    .where("likeness", "is not", null)
    .execute();
}
