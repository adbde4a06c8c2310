import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { notFound, tooManyRequests } from "~/infra/errors.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import { getFileStore } from "~/infra/file-store.server";
import { idSchema, optimizeSchema } from "~/lib/studio-schemas";
import { optimizeStylizedImage, runningOptimizations } from "~/services/optimization.server";
import { ensureStorageLeft } from "~/services/quotas.server";
import {
  deleteStylized as deleteStylizedRow,
  findStylized,
  listStylized,
  stylizedImageJson,
} from "~/services/stylized-images.server";
import { studioDeletionHooks } from "./studio-images.server";

/** The creator's stylized images: list, poll, delete, optimize. */

export const listStylizedImages = defineProcedure({
  name: "studio.listStylizedImages",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    const rows = await listStylized(ctx.db, user.id);
    return rows.map((row) => stylizedImageJson(row, row.original_file_key));
  },
});

export const getStylizedImage = defineProcedure({
  name: "studio.getStylizedImage",
  access: "user",
  input: idSchema,
  async run({ input, user, ctx }) {
    const row = await findStylized(ctx.db, user.id, input.id);
    if (!row) throw notFound("Stylized image not found");
    return stylizedImageJson(row, row.original_file_key);
  },
});

export const deleteStylizedImage = defineProcedure({
  name: "studio.deleteStylizedImage",
  access: "user",
  input: idSchema,
  async run({ input, user, ctx }) {
    const deleted = await deleteStylizedRow(ctx.db, getFileStore(), {
      userId: user.id,
      id: input.id,
      hooks: studioDeletionHooks(ctx),
    });
    if (!deleted) throw notFound("Stylized image not found");
    return { id: input.id };
  },
});

export const optimizeImage = defineProcedure({
  name: "studio.optimizeImage",
  access: "user",
  input: optimizeSchema,
  async run({ input, user, ctx }) {
    const row = await findStylized(ctx.db, user.id, input.imageId);
    if (!row) throw notFound("Stylized image not found");
    await ensureFreeSpace(ctx.config);
    await ensureStorageLeft(ctx.db, { userId: user.id, config: ctx.config });
    const max = ctx.config.OPTIMIZATIONS_AT_ONCE;
    const release = runningOptimizations.tryAcquire(user.id, max);
    if (!release) {
      throw tooManyRequests(
        5,
        `You already have ${max} ${max === 1 ? "optimization" : "optimizations"} running. Please wait for them to finish.`,
      );
    }
    try {
      const { imageId: _imageId, ...settings } = input;
      const updated = await optimizeStylizedImage(ctx.db, getFileStore(), { row, settings, now: ctx.now });
      return stylizedImageJson(updated, row.original_file_key);
    } finally {
      release();
    }
  },
});
