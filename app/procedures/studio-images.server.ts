import path from "node:path";
import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { notFound, unsupportedMedia } from "~/infra/errors.server";
import { getFileStore } from "~/infra/file-store.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { getStyleEngine } from "~/engines/styling/select-style-engine.server";
import { receiveFileUpload } from "~/infra/uploads/receive-upload.server";
import { sweepScratchSoon } from "~/infra/uploads/scratch-sweep.server";
import { FILE_TOO_LARGE, INVALID_FILE_TYPE, MAX_UPLOAD_BYTES } from "~/lib/limits";
import { idSchema, stylizeSchema } from "~/lib/studio-schemas";
import { removePublishingArtifacts } from "~/services/publications.server";
import {
  deleteImage as deleteImageRows,
  findImage,
  findImageWithStylized,
  imageJson,
  listImagesWithStylized,
  NotAnImageError,
  storeUploadedImage,
} from "~/services/images.server";
import { withdrawListingsForStylizedImage } from "~/services/listings.server";
import { requestStylization, stylizedImageJson } from "~/services/stylized-images.server";
import { ensureDailyAllowance, ensureStorageLeft, recordUsage } from "~/services/quotas.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import type { DeletionHooks } from "~/services/deletion-hooks.server";
import type { CallContext } from "~/infra/call-context.server";

/**
 * The creator's originals: upload, list, read, delete, and asking for a style.
 * Used by the /api routes (bearer or cookie) and by the dashboard's actions.
 */

export const UPLOAD_FIELD = "image";
export const UPLOAD_MESSAGES = {
  tooLarge: FILE_TOO_LARGE.description,
  missing: `Choose an image to upload (a file in the form field named "${UPLOAD_FIELD}").`,
  notMultipart: `Send the image as multipart/form-data, in a form field named "${UPLOAD_FIELD}".`,
};

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
    const store = getFileStore();
    sweepScratchSoon(path.join(store.root, "tmp"));
    const daily = { userId: user.id, kind: "upload" as const, limit: ctx.config.UPLOADS_PER_DAY, now: ctx.now };
    if (!ctx.upload) throw new Error("studio.uploadImage is called with the request body (ctx.upload)");
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
        admit: async (trx, image) => {
          await ensureDailyAllowance(trx, daily);
          await ensureStorageLeft(trx, { userId: user.id, config: ctx.config, addingBytes: image.bytes });
          await recordUsage(trx, { userId: user.id, kind: "upload", now: ctx.now });
        },
      });
      return imageJson(row);
    } catch (error) {
      if (error instanceof NotAnImageError) throw unsupportedMedia(INVALID_FILE_TYPE.description);
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

/** Withdraws the marketplace listings of each stylized image before it goes (sold copies stay downloadable). */
export function studioDeletionHooks(ctx: CallContext): DeletionHooks {
  const store = getFileStore();
  return {
    beforeStylizedDelete: async (stylizedImageId) => {
      await withdrawListingsForStylizedImage(ctx.db, stylizedImageId, { store, now: ctx.now });
      await removePublishingArtifacts(ctx.db, store, stylizedImageId);
    },
  };
}

export const deleteImage = defineProcedure({
  name: "studio.deleteImage",
  access: "user",
  input: idSchema,
  async run({ input, user, ctx }) {
    const deleted = await deleteImageRows(ctx.db, getFileStore(), {
      userId: user.id,
      imageId: input.id,
      hooks: studioDeletionHooks(ctx),
    });
    if (!deleted) throw notFound("Image not found");
    return { id: input.id };
  },
});

/** Creates a pending stylized image and its durable job; the worker does the rest. */
export const stylizeImage = defineProcedure({
  name: "studio.stylizeImage",
  access: "user",
  input: stylizeSchema,
  async run({ input, user, ctx }) {
    const image = await findImage(ctx.db, user.id, input.id);
    if (!image) throw notFound("Image not found");
    await ensureFreeSpace(ctx.config);
    await ensureStorageLeft(ctx.db, { userId: user.id, config: ctx.config });
    // The open-styles cap and the daily quota are checked by the insert itself (429 past either).
    const row = await requestStylization(ctx.db, {
      userId: user.id,
      imageId: image.id,
      style: input.style,
      provider: getStyleEngine(ctx.config).id,
      now: ctx.now,
      perDay: ctx.config.STYLIZATIONS_PER_DAY,
    });
    if (!row) throw notFound("Image not found");
    announceJobs();
    return stylizedImageJson(row, image.file_key);
  },
});
