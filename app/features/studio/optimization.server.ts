import fsp from "node:fs/promises";
import sharp from "sharp";
import type { StylizedImageRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { newFileKey } from "~/infra/file-store.server";
import { PerKeyLimiter } from "~/infra/per-key-limiter.server";
import { badRequest, notFound } from "~/infra/errors.server";
import { disclosureXmp } from "~/engines/styling/ai-disclosure.server";
import { PRODUCT_NAME } from "~/lib/product";
import type { OptimizationSettings, Resolution } from "~/features/studio/optimization";
import { watermarkSvg } from "~/features/studio/watermark.server";

/**
 * Optimization: a delivery version of a completed stylized image, made by
 * sharp with the creator's settings. It gets its own file key (and so its own
 * URL); making a new one replaces the previous version.
 *
 * - resolution: fits inside the box, never enlarged ("original" keeps the size);
 * - watermark: the product name, diagonally and in a corner (watermark.server.ts);
 * - social optimization: a light sharpen, sRGB with its ICC profile embedded,
 *   progressive JPEG and WebP's sharper colour subsampling;
 * - quality applies to JPEG and WebP; PNG is lossless and ignores it;
 * - the AI disclosure (XMP) of the styled image is carried over; nothing else.
 */

/** Optimizations running in this process, per creator (the optimize procedure holds a slot while it works). */
export const runningOptimizations = new PerKeyLimiter();

export function resolutionBox(resolution: Resolution): { width: number; height: number } | null {
  if (resolution === "original") return null;
  const [width, height] = resolution.split("x").map(Number);
  return { width, height };
}

export async function optimizeStylizedImage(
  db: DB,
  store: FileStore,
  args: { row: StylizedImageRow; settings: OptimizationSettings; now: Date },
): Promise<StylizedImageRow> {
  const { row, settings } = args;
  if (row.status !== "completed" || !row.file_key) {
    throw badRequest("Only a completed stylized image can be optimized. Wait until its style is ready.", {
      imageId: ["The stylized image is not completed yet"],
    });
  }
  const sourcePath = store.pathOf(row.file_key);
  const metadata = await sharp(sourcePath).metadata();
  const xmp = metadata.xmp?.toString("utf8") || disclosureXmp(`${PRODUCT_NAME} (${row.provider} engine)`);

  let pipeline = sharp(sourcePath).rotate();
  const box = resolutionBox(settings.resolution);
  if (box) pipeline = pipeline.resize({ ...box, fit: "inside", withoutEnlargement: true });
  // Work on raw pixels from here, so the watermark can be sized to the final dimensions.
  const { data, info } = await pipeline.toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
  let output = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  if (settings.socialOptimized) output = output.sharpen({ sigma: 0.6 });
  if (settings.watermark) {
    output = output.composite([{ input: Buffer.from(watermarkSvg(info.width, info.height)), top: 0, left: 0 }]);
  }
  output = output.withXmp(xmp);
  if (settings.socialOptimized) output = output.withIccProfile("srgb");

  switch (settings.format) {
    case "jpg":
      output = output.flatten({ background: "#ffffff" }).jpeg({
        quality: settings.quality,
        progressive: settings.socialOptimized,
        chromaSubsampling: settings.quality >= 90 ? "4:4:4" : "4:2:0",
      });
      break;
    case "webp":
      output = output.webp({ quality: settings.quality, smartSubsample: settings.socialOptimized, effort: 4 });
      break;
    case "png":
      output = output.png({ compressionLevel: 9, adaptiveFiltering: true });
      break;
  }

  const key = newFileKey("optimized", settings.format);
  const scratch = await store.scratchPath();
  try {
    const written = await output.toFile(scratch);
    await store.adopt(key, scratch);
    const updated = await db
      .updateTable("stylized_images")
      .set({
        optimized_file_key: key,
        optimized_format: settings.format,
        optimized_quality: settings.quality,
        optimized_resolution: settings.resolution,
        optimized_width: written.width,
        optimized_height: written.height,
        optimized_bytes: written.size,
        watermark: settings.watermark ? 1 : 0,
        social_optimized: settings.socialOptimized ? 1 : 0,
        updated_at: args.now.toISOString(),
      })
      .where("id", "=", row.id)
      .where("status", "=", "completed")
      .returningAll()
      .executeTakeFirst();
    if (!updated) {
      await store.remove(key); // deleted while we worked
      throw notFound("Stylized image not found");
    }
    if (row.optimized_file_key && row.optimized_file_key !== key) await store.remove(row.optimized_file_key);
    return updated;
  } finally {
    await fsp.rm(scratch, { force: true });
  }
}
