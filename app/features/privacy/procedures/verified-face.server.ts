import fsp from "node:fs/promises";
import { z } from "zod";
import type { DB } from "~/infra/db.server";
import { currentFaceConsentVersion } from "~/features/privacy/face-consent.server";
import { defineProcedure } from "~/infra/procedure.server";
import { badRequest, conflict, unsupportedMedia } from "~/infra/errors.server";
import { receiveFileUpload } from "~/infra/uploads/receive-upload.server";
import { sweepScratchSoon } from "~/infra/uploads/scratch-sweep.server";
import { DAMAGED_IMAGE, INVALID_FILE_TYPE, MAX_UPLOAD_BYTES, UPLOAD_MESSAGES } from "~/lib/limits";
import {
  describeFaces,
  DESCRIBE_EDGE,
  faceSimilarity,
  MIN_FACE_SHARE,
  SAME_PERSON_SIMILARITY,
} from "~/engines/styling/vision/face-descriptor.server";
import {
  deleteVerifiedFace,
  faceVerifiedAt,
  otherVerifiedFaces,
  saveVerifiedFace,
} from "~/features/accounts/public.server";
import { recordAuditEntry } from "~/features/audit/public.server";
import {
  forgetLikenessOf,
  NotAnImageError,
  queueLikenessComparison,
  readUploadedPicture,
} from "~/features/studio/public.server";
import { hasCurrentFaceConsent } from "~/features/privacy/face-consent";

/**
 * A creator's verified face (decision record 083): a selfie of them alone,
 * sent after the consent to face processing, becomes a face descriptor (the
 * photo is not kept); uploads are then compared with it (their likeness).
 * POST and DELETE /api/account/face, and Settings, Privacy.
 */

export const FACE_NEEDS_CONSENT =
  "Verifying your face needs your consent to face processing: agree to it first (Settings, Privacy).";
export const NO_FACE_FOUND =
  "No face was found in this photo: take a selfie with your face in full view, facing the camera, in good light.";
export const SEVERAL_FACES = (count: number) =>
  `This photo holds ${count} faces: take a selfie of yourself alone.`;
export const FACE_TOO_SMALL =
  "Your face is too small in this photo: take the selfie closer, with your face filling more of the picture.";

/** What the API and the Privacy tab say of the verified face. */
export interface VerifiedFaceJson {
  verified: boolean;
  /** When it was verified (null: not verified). */
  at: string | null;
}

/** Verifies the caller's face from the selfie in the multipart field `image`; answers `{face}`. */
export const verifyFace = defineProcedure({
  name: "privacy.verifyFace",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    if (!ctx.upload)
      throw new Error("privacy.verifyFace is called with the request body (ctx.upload)");
    const store = ctx.files;
    sweepScratchSoon(await store.scratchDir());
    const upload = await receiveFileUpload(ctx.upload, {
      field: "image",
      maxFileBytes: MAX_UPLOAD_BYTES,
      scratchPath: () => store.scratchPath(),
      messages: UPLOAD_MESSAGES,
      // Refused before the body is read.
      admit: async () => {
        if (!hasCurrentFaceConsent(user, currentFaceConsentVersion(ctx.config)))
          throw conflict(FACE_NEEDS_CONSENT);
      },
    });
    let picture: Buffer;
    try {
      picture = await readUploadedPicture(upload.path, DESCRIBE_EDGE);
    } catch (error) {
      if (error instanceof NotAnImageError)
        throw unsupportedMedia(
          (error.problem === "damaged" ? DAMAGED_IMAGE : INVALID_FILE_TYPE).description,
        );
      throw error;
    } finally {
      await fsp.rm(upload.path, { force: true });
    }
    await verifyFaceFromPicture(ctx.db, { userId: user.id, picture, now: ctx.now });
    return { face: { verified: true, at: ctx.now.toISOString() } satisfies VerifiedFaceJson };
  },
});

/**
 * Keeps the face in `picture` (read as `readUploadedPicture` reads an upload, at DESCRIBE_EDGE)
 * as the creator's verified face: 400 unless it holds one face large enough. The procedure
 * above and the seed's demo creator (app/boot/seed.server.ts) verify through here.
 */
export async function verifyFaceFromPicture(
  db: DB,
  args: { userId: string; picture: Buffer; now: Date },
): Promise<void> {
  const faces = await describeFaces(args.picture);
  if (faces.length === 0) throw badRequest(NO_FACE_FOUND);
  if (faces.length > 1) throw badRequest(SEVERAL_FACES(faces.length));
  const [face] = faces;
  if (face.share < MIN_FACE_SHARE) throw badRequest(FACE_TOO_SMALL);

  // The same person verified on another account: accepted, and flagged to the admin.
  const others = await otherVerifiedFaces(db, args.userId);
  let sameFace: { userId: string; similarity: number } | null = null;
  for (const other of others) {
    const similarity = faceSimilarity(face.descriptor, other.descriptor);
    if (similarity >= SAME_PERSON_SIMILARITY && similarity > (sameFace?.similarity ?? 0))
      sameFace = { userId: other.userId, similarity };
  }
  await db.transaction().execute(async (trx) => {
    await saveVerifiedFace(trx, {
      userId: args.userId,
      descriptor: face.descriptor,
      now: args.now,
      sameFaceUserId: sameFace?.userId ?? null,
    });
    // Uploads compared with an earlier face (or none) are compared again, in the background
    // (decision record 083).
    await forgetLikenessOf(trx, args.userId);
    await queueLikenessComparison(trx, { userId: args.userId, verifiedAt: args.now });
    if (sameFace)
      await recordAuditEntry(trx, {
        actorId: args.userId,
        action: "user.face_also_verified",
        subjectId: args.userId,
        detail: { otherAccount: sameFace.userId, similarity: round(sameFace.similarity) },
        now: args.now,
      });
  });
}

/** Deletes the caller's verified face (its descriptor); their uploads show `unverified` again. */
export const removeVerifiedFace = defineProcedure({
  name: "privacy.removeVerifiedFace",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    await forgetVerifiedFace(ctx.db, user.id);
    return { face: { verified: false, at: null } satisfies VerifiedFaceJson };
  },
});

/** The verified face's state, for the Privacy tab. */
export async function verifiedFaceOf(
  db: Parameters<typeof faceVerifiedAt>[0],
  userId: string,
): Promise<VerifiedFaceJson> {
  const at = await faceVerifiedAt(db, userId);
  return { verified: at !== null, at };
}

/** Deletes the descriptor and what was compared with it (a withdrawn consent, DELETE /api/account/face). */
export async function forgetVerifiedFace(
  db: Parameters<typeof deleteVerifiedFace>[0],
  userId: string,
): Promise<void> {
  await deleteVerifiedFace(db, userId);
  await forgetLikenessOf(db, userId);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
