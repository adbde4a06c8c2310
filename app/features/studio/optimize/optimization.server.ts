import fsp from "node:fs/promises";
import sharp from "sharp";
import type { StylizedImageRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { newFileKey } from "~/infra/file-store.server";
import { PerKeyLimiter } from "~/infra/per-key-limiter.server";
import { badRequest, notFound } from "~/infra/errors.server";
import { digitalSourceTypeOf, disclosureXmp } from "~/engines/styling/ai-disclosure.server";
import type { Upscaler } from "~/engines/upscaling/upscaler.server";
import { localUpscaler } from "~/engines/upscaling/upscaler.server";
import { FAL_UPSCALE_MODEL } from "~/engines/upscaling/fal-upscaler.server";
import { PRODUCT_NAME } from "~/lib/product";
import type { OptimizationSettings, Resolution } from "~/features/studio/optimize/optimization";
import { watermarkSvg } from "~/features/studio/images/watermark.server";

/**
 * Optimization: a delivery version of a completed stylized image, made by
 * sharp with the creator's settings. It gets its own file key (and so its own
 * URL); making a new one replaces the previous version.
 *
 * - resolution: fits inside the box, never enlarged ("original" keeps the size),
 *   except the marketplace's "2048x2048", which makes 2048 px on the long edge:
 *   a smaller image is enlarged with the best upscaler this server has (fal.ai's
 *   Real-ESRGAN with FAL_KEY, else Lanczos-3), recorded as optimized_upscaled_by;
 *   more than MAX_PRESET_UPSCALE times is refused with a sentence saying why;
 * - watermark: the product name, diagonally and in a corner (watermark.server.ts);
 * - social optimization: a light sharpen, sRGB with its ICC profile embedded,
 *   progressive JPEG and WebP's sharper colour subsampling;
 * - quality applies to JPEG and WebP; PNG is lossless and ignores it;
 * - the AI disclosure (XMP): the styled image's tool, and the IPTC digital
 *   source type of the engine that made it (its row's provider); nothing else.
 */

/** The resolutions made at their size even from a smaller image (the others only shrink). */
export const ENLARGING_RESOLUTIONS: ReadonlySet<Resolution> = new Set(["2048x2048"]);
/** An image is enlarged at most this many times (beyond, upscaling invents more than it keeps). */
export const MAX_PRESET_UPSCALE = 4;

/** The sentence when a preset would need more enlarging than MAX_PRESET_UPSCALE. */
export function tooSmallToEnlarge(width: number, height: number, longEdge: number): string {
  return `This image is ${width} × ${height} px: making it ${longEdge} px on its long edge would enlarge it more than ${MAX_PRESET_UPSCALE} times, which only blurs it. Choose "Original" or a smaller size, or style a larger photo.`;
}

/** The pixel size of `width`×`height` enlarged so its long edge is `longEdge`. */
function enlargedSize(
  width: number,
  height: number,
  longEdge: number,
): { width: number; height: number } {
  const scale = longEdge / Math.max(width, height);
  return {
    width: width >= height ? longEdge : Math.max(1, Math.round(width * scale)),
    height: height >= width ? longEdge : Math.max(1, Math.round(height * scale)),
  };
}

/** The creator tool written in an image's XMP, if any. */
function creatorToolIn(xmp: string): string | undefined {
  const found =
    /xmp:CreatorTool="([^"]*)"/.exec(xmp)?.[1] ?? /xmp:CreatorTool>([^<]*)</.exec(xmp)?.[1];
  return found?.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/**
 * Optimizations running in this process, per creator (the optimize procedure
 * holds a slot while it works). Per process on purpose: the slots share out
 * this machine's cores and memory among sharp's work, which is what they
 * protect; nothing is stored, so nothing needs a database lock
 * (docs/decisions/058).
 */
export const runningOptimizations = new PerKeyLimiter();

export function resolutionBox(resolution: Resolution): { width: number; height: number } | null {
  if (resolution === "original") return null;
  const [width, height] = resolution.split("x").map(Number);
  return { width, height };
}

export async function optimizeStylizedImage(
  db: DB,
  store: FileStore,
  args: {
    row: StylizedImageRow;
    settings: OptimizationSettings;
    now: Date;
    /** Enlarges for ENLARGING_RESOLUTIONS (default: the local Lanczos-3 resize). */
    upscaler?: Upscaler;
  },
): Promise<StylizedImageRow> {
  const { row, settings } = args;
  if (row.status !== "completed" || !row.file_key) {
    throw badRequest(
      "Only a completed stylized image can be optimized. Wait until its style is ready.",
      {
        imageId: ["The stylized image is not completed yet"],
      },
    );
  }
  const source = await store.read(row.file_key);
  const metadata = await sharp(source).metadata();
  const xmp = disclosureXmp(
    creatorToolIn(metadata.xmp?.toString("utf8") ?? "") ??
      `${PRODUCT_NAME} (${row.provider} engine)`,
    digitalSourceTypeOf(row.provider),
  );

  let pipeline = sharp(source).rotate();
  const box = resolutionBox(settings.resolution);
  let upscaledBy: string | null = null;
  const sourceWidth =
    (metadata.orientation ?? 1) >= 5 ? (metadata.height ?? 0) : (metadata.width ?? 0);
  const sourceHeight =
    (metadata.orientation ?? 1) >= 5 ? (metadata.width ?? 0) : (metadata.height ?? 0);
  const longEdge = box ? Math.max(box.width, box.height) : 0;
  if (
    box &&
    ENLARGING_RESOLUTIONS.has(settings.resolution) &&
    Math.max(sourceWidth, sourceHeight) < longEdge
  ) {
    if (longEdge > Math.max(sourceWidth, sourceHeight) * MAX_PRESET_UPSCALE) {
      throw badRequest(tooSmallToEnlarge(sourceWidth, sourceHeight, longEdge), {
        resolution: [`The image is too small to make ${settings.resolution}`],
      });
    }
    const enlarged = await enlarge(
      source,
      enlargedSize(sourceWidth, sourceHeight, longEdge),
      args.upscaler,
    );
    pipeline = sharp(enlarged.data);
    upscaledBy = enlarged.method;
  } else if (box) pipeline = pipeline.resize({ ...box, fit: "inside", withoutEnlargement: true });
  // Work on raw pixels from here, so the watermark can be sized to the final dimensions.
  const { data, info } = await pipeline
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  let output = sharp(data, {
    raw: { width: info.width, height: info.height, channels: info.channels },
  });
  if (settings.socialOptimized) output = output.sharpen({ sigma: 0.6 });
  if (settings.watermark) {
    output = output.composite([
      { input: Buffer.from(watermarkSvg(info.width, info.height)), top: 0, left: 0 },
    ]);
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
      output = output.webp({
        quality: settings.quality,
        smartSubsample: settings.socialOptimized,
        effort: 4,
      });
      break;
    case "png":
      output = output.png({ compressionLevel: 9, adaptiveFiltering: true });
      break;
  }

  const key = newFileKey("optimized", settings.format);
  const scratch = await store.scratchPath();
  try {
    const written = await output.toFile(scratch);
    await store.putFile(key, scratch);
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
        optimized_upscaled_by: upscaledBy,
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
    if (row.optimized_file_key && row.optimized_file_key !== key)
      await store.remove(row.optimized_file_key);
    return updated;
  } finally {
    await fsp.rm(scratch, { force: true });
  }
}

/**
 * Enlarges with the given upscaler; when that is fal.ai's and it fails, with
 * the local Lanczos-3 resize instead. Answers the pixels and the method's id:
 * "fal-ai/esrgan" or "lanczos3".
 */
async function enlarge(
  source: Buffer,
  target: { width: number; height: number },
  upscaler: Upscaler = localUpscaler,
): Promise<{ data: Buffer; method: string }> {
  try {
    const result = await upscaler.upscale(source, target);
    return { data: result.data, method: result.engine === "fal" ? FAL_UPSCALE_MODEL : "lanczos3" };
  } catch (error) {
    if (upscaler === localUpscaler) throw error;
    console.warn("The upscaler failed; enlarging with Lanczos-3 instead:", error);
    const result = await localUpscaler.upscale(source, target);
    return { data: result.data, method: "lanczos3" };
  }
}
