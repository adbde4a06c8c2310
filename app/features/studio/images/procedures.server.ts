import fsp from "node:fs/promises";
import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { HttpError, notFound, unsupportedMedia } from "~/infra/errors.server";
import type { ImageJson } from "~/features/studio/types";
import { receiveFileUploads } from "~/infra/uploads/receive-upload.server";
import type { ReceivedFile } from "~/infra/uploads/receive-upload.server";
import { sweepScratchSoon } from "~/infra/uploads/scratch-sweep.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import {
  DAMAGED_IMAGE,
  INVALID_FILE_TYPE,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_FILES,
  UPLOAD_FIELD,
  UPLOAD_MESSAGES,
} from "~/lib/limits";
import { idSchema } from "~/features/studio/schemas";
import {
  deleteImage as deleteImageRows,
  findImageWithStylized,
  imageJson,
  listImagesWithStylized,
  NotAnImageError,
  storeUploadedImage,
} from "~/features/studio/images/images.server";
import {
  admitUpload,
  ensureDailyAllowance,
  ensureStorageLeft,
} from "~/features/studio/styles/quotas.server";
import { deletionHooksFor } from "~/features/studio/ties.server";
import { likenessOfUpload } from "~/features/studio/images/likeness.server";

/**
 * The creator's originals: upload, list, read, delete. Used by the /api
 * routes (bearer or cookie) and by the dashboard's actions.
 */

/** A file of a several-file upload that was not stored, and why (its HTTP status and sentence). */
export interface RefusedUpload {
  /** Its place among the files sent, from 0. */
  index: number;
  filename: string | null;
  status: number;
  message: string;
}

/**
 * What an upload did: `files` sent, the images stored, in the order sent, and
 * the files refused. One file keeps the single-file answer: its refusal is
 * thrown as before.
 */
export interface UploadOutcome {
  files: number;
  images: ImageJson[];
  refused: RefusedUpload[];
}

/**
 * Streams the multipart body the adapter hands over (ctx.upload) to the data
 * volume (10 MB hard limit a file, up to MAX_UPLOAD_FILES files), then decodes
 * and stores each file on its own, in the order sent, as a single upload is:
 * a file that is not an image, or that would pass a cap (today's uploads,
 * storage room: checked under the lock where its row is inserted), is refused
 * alone and the others are kept. When every file is refused (or only one was
 * sent) the first refusal is the answer. The body is a stream, not an input to
 * validate, and it is read only after the caller was admitted.
 */
export const uploadImage = defineProcedure({
  name: "studio.uploadImage",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    const store = ctx.files;
    sweepScratchSoon(await store.scratchDir());
    const daily = {
      userId: user.id,
      kind: "upload" as const,
      limit: ctx.config.UPLOADS_PER_DAY,
      now: ctx.now,
    };
    if (!ctx.upload)
      throw new Error("studio.uploadImage is called with the request body (ctx.upload)");
    const uploads = await receiveFileUploads(ctx.upload, {
      field: UPLOAD_FIELD,
      maxFileBytes: MAX_UPLOAD_BYTES,
      maxFiles: MAX_UPLOAD_FILES,
      scratchPath: () => store.scratchPath(),
      messages: UPLOAD_MESSAGES,
      // Refused before the body is read: a full volume, today's uploads used up, or no storage left.
      admit: async () => {
        await ensureFreeSpace(ctx.config);
        await ensureDailyAllowance(ctx.db, daily);
        await ensureStorageLeft(ctx.db, { userId: user.id, config: ctx.config });
      },
    });
    const storeOne = async (upload: ReceivedFile) => {
      try {
        const row = await storeUploadedImage(ctx.db, store, {
          userId: user.id,
          sourcePath: upload.path,
          now: ctx.now,
          likenessOf: (image) => likenessOfUpload(ctx.db, user.id, image),
          // Checked again where the row is inserted, so uploads sent at the same time cannot pass together.
          admit: (trx, image) =>
            admitUpload(trx, {
              userId: user.id,
              config: ctx.config,
              bytes: image.bytes,
              now: ctx.now,
            }),
        });
        return imageJson(row);
      } catch (error) {
        if (error instanceof NotAnImageError)
          throw unsupportedMedia(
            (error.problem === "damaged" ? DAMAGED_IMAGE : INVALID_FILE_TYPE).description,
          );
        throw error;
      }
    };
    const outcome: UploadOutcome = { files: uploads.length, images: [], refused: [] };
    let firstRefusal: HttpError | undefined;
    for (const [index, upload] of uploads.entries()) {
      try {
        outcome.images.push(await storeOne(upload));
      } catch (error) {
        // Only a user's-side refusal is kept per file; anything else fails the whole upload.
        if (!(error instanceof HttpError) || error.status >= 500) {
          await removeScratch(uploads.slice(index));
          throw error;
        }
        firstRefusal ??= error;
        outcome.refused.push({
          index,
          filename: upload.filename,
          status: error.status,
          message: error.message,
        });
        await removeScratch([upload]);
      }
    }
    if (outcome.images.length === 0 && firstRefusal) throw firstRefusal;
    return outcome;
  },
});

/** Scratch files not stored (storeUploadedImage moves the ones it stores). */
async function removeScratch(files: ReceivedFile[]): Promise<void> {
  await Promise.all(files.map((file) => fsp.rm(file.path, { force: true })));
}

export const listImages = defineProcedure({
  name: "studio.listImages",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => listImagesWithStylized(ctx.db, user.id),
});

export const getImage = defineProcedure({
  name: "studio.getImage",
  access: "user",
  input: idSchema,
  async run({ input, user, ctx }) {
    const image = await findImageWithStylized(ctx.db, user.id, input.id);
    if (!image) throw notFound("Image not found");
    return image;
  },
});

/** Deletes an original and its styles; each style's ties in other features go first (app/boot/studio-ties.server.ts). */
export const deleteImage = defineProcedure({
  name: "studio.deleteImage",
  access: "user",
  input: idSchema,
  async run({ input, user, ctx }) {
    const deleted = await deleteImageRows(ctx.db, ctx.files, {
      userId: user.id,
      imageId: input.id,
      hooks: deletionHooksFor(ctx),
    });
    if (!deleted) throw notFound("Image not found");
    return { id: input.id };
  },
});
