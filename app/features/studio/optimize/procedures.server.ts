import { defineProcedure } from "~/infra/procedure.server";
import { tooManyRequests } from "~/infra/errors.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import { selectUpscaler } from "~/engines/upscaling/select-upscaler.server";
import { contentCredentialsFor } from "~/engines/provenance/content-credentials.server";
import { optimizeSchema } from "~/features/studio/schemas";
import {
  ownStylizedOr404,
  stylizedImageJson,
} from "~/features/studio/styles/stylized-images.server";
import { ensureStorageLeft } from "~/features/studio/styles/quotas.server";
import {
  optimizeStylizedImage,
  runningOptimizations,
} from "~/features/studio/optimize/optimization.server";

/** A completed style made ready to sell: format, quality, size, watermark (optimization.server.ts). */
export const optimizeImage = defineProcedure({
  name: "studio.optimizeImage",
  access: "user",
  input: optimizeSchema,
  async run({ input, user, ctx }) {
    const row = await ownStylizedOr404(ctx.db, user.id, input.imageId);
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
      const updated = await optimizeStylizedImage(ctx.db, ctx.files, {
        row,
        settings,
        now: ctx.now,
        upscaler: selectUpscaler(ctx.config),
        credentials: contentCredentialsFor(ctx.config),
      });
      return stylizedImageJson(updated, row.original_file_key);
    } finally {
      release();
    }
  },
});
