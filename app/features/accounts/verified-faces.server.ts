import type { DB } from "~/infra/db.server";
import {
  decodeDescriptor,
  encodeDescriptor,
} from "~/engines/styling/vision/face-descriptor.server";

/**
 * A creator's verified face (verified_faces, migration 0050): the face
 * descriptor made from their selfie, biometric data kept with the account and
 * deleted with the consent to face processing, on request and on erasure.
 * Never exported, never shown: the API says only that the face is verified
 * and when.
 */

export interface VerifiedFace {
  userId: string;
  descriptor: number[];
  verifiedAt: string;
  /** Another account whose verified face was the same person's at verification (flagged to the admin). */
  sameFaceUserId: string | null;
}

export async function findVerifiedFace(db: DB, userId: string): Promise<VerifiedFace | undefined> {
  const row = await db
    .selectFrom("verified_faces")
    .selectAll()
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return (
    row && {
      userId: row.user_id,
      descriptor: decodeDescriptor(row.descriptor),
      verifiedAt: row.verified_at,
      sameFaceUserId: row.same_face_user_id,
    }
  );
}

/** When the user's face was verified, without reading the descriptor (null: not verified). */
export async function faceVerifiedAt(db: DB, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom("verified_faces")
    .select("verified_at")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.verified_at ?? null;
}

/** Every other account's verified face, to find the same person on two accounts. */
export async function otherVerifiedFaces(
  db: DB,
  userId: string,
): Promise<Array<{ userId: string; descriptor: number[] }>> {
  const rows = await db
    .selectFrom("verified_faces")
    .select(["user_id", "descriptor"])
    .where("user_id", "<>", userId)
    .orderBy("user_id")
    .execute();
  return rows.map((row) => ({ userId: row.user_id, descriptor: decodeDescriptor(row.descriptor) }));
}

/** Keeps the user's verified face, replacing an earlier one. */
export async function saveVerifiedFace(
  db: DB,
  face: { userId: string; descriptor: number[]; now: Date; sameFaceUserId: string | null },
): Promise<void> {
  const values = {
    descriptor: encodeDescriptor(face.descriptor),
    verified_at: face.now.toISOString(),
    same_face_user_id: face.sameFaceUserId,
  };
  await db
    .insertInto("verified_faces")
    .values({ user_id: face.userId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
    .execute();
}

/** Deletes the user's verified face (its descriptor); answers whether there was one. */
export async function deleteVerifiedFace(db: DB, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom("verified_faces")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The accounts among `userIds` whose verified face is also another account's: user id to that account's id. */
export async function sameFaceFlags(db: DB, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("verified_faces")
    .select(["user_id", "same_face_user_id"])
    .where("user_id", "in", userIds)
    .where("same_face_user_id", "is not", null)
    .execute();
  return new Map(rows.map((row) => [row.user_id, row.same_face_user_id ?? ""]));
}
