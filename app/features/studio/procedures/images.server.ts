import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { notFound, unsupportedMedia } from "~/infra/errors.server";
import { receiveFileUpload } from "~/infra/uploads/receive-upload.server";
import { sweepScratchSoon } from "~/infra/uploads/scratch-sweep.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import {
  DAMAGED_IMAGE,
  INVALID_FILE_TYPE,
  MAX_UPLOAD_BYTES,
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
} from "~/features/studio/images.server";
import {
  admitUpload,
  ensureDailyAllowance,
  ensureStorageLeft,
} from "~/features/studio/quotas.server";
import { deletionHooksFor } from "~/features/studio/ties.server";

/**
 * The creator's originals: upload, list, read, delete. Used by the /api
 * routes (bearer or cookie) and by the dashboard's actions.
 */

/**
 * Streams the multipart body the adapter hands over (ctx.upload) to the data
 * volume (10 MB hard limit), then decodes and stores it. The body is a stream,
 * not an input to validate, and it is read only after the caller was admitted.
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
    const upload = await receiveFileUpload(ctx.upload, {
      field: UPLOAD_FIELD,
      maxFileBytes: MAX_UPLOAD_BYTES,
      scratchPath: () => store.scratchPath(),
      messages: UPLOAD_MESSAGES,
      // Refused before the body is read: a full volume, today's uploads used up, or no storage left.
      admit: async () => {
        await ensureFreeSpace(ctx.config);
        await ensureDailyAllowance(ctx.db, daily);
        await ensureStorageLeft(ctx.db, { userId: user.id, config: ctx.config });
      },
    });
    try {
      const row = await storeUploadedImage(ctx.db, store, {
        userId: user.id,
        sourcePath: upload.path,
        now: ctx.now,
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
  },
});

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
