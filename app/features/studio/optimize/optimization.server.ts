import sharp from "sharp";
import type { StylizedImageRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { newFileKey } from "~/infra/file-store.server";
import { PerKeyLimiter } from "~/infra/per-key-limiter.server";
import { badRequest, notFound } from "~/infra/errors.server";
import {
  creatorToolIn,
  digitalSourceTypeOf,
  disclosureXmp,
} from "~/engines/styling/ai-disclosure.server";
import type { Upscaler } from "~/engines/upscaling/upscaler.server";
import { localUpscaler, upscaledPixels } from "~/engines/upscaling/upscaler.server";
import { upscaledByOf, upscaleWithFallback } from "~/engines/upscaling/select-upscaler.server";
import { joinUpscaling, upscaleLabel } from "~/lib/sale-size";
import { PRODUCT_NAME } from "~/lib/product";
import {
  originalIngredientIn,
  type ContentCredentials,
} from "~/engines/provenance/content-credentials.server";
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
 *   source type of the engine that made it (its row's provider); how it was
 *   upscaled, if it was ("upscaled with Lanczos ×2", the styled file's own
 *   words, or the preset's); nothing else;
 * - Content Credentials (decision 095): a manifest saying the same (created by
 *   that tool, with that source type, from the upload the styled file's own
 *   manifest names by hash) and what the optimization did, its upscaling
 *   included (`c2pa.edited`).
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
    /** Signs the optimized copy's Content Credentials before it is stored. */
    credentials: ContentCredentials;
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
  const creatorTool =
    creatorToolIn(metadata.xmp?.toString("utf8") ?? "") ??
    `${PRODUCT_NAME} (${row.provider} engine)`;
  const sourceType = digitalSourceTypeOf(row.provider);

  let pipeline = sharp(source).rotate();
  const box = resolutionBox(settings.resolution);
  let upscaledBy: string | null = null;
  const sourceWidth =
    (metadata.orientation ?? 1) >= 5 ? (metadata.height ?? 0) : (metadata.width ?? 0);
  const sourceHeight =
    (metadata.orientation ?? 1) >= 5 ? (metadata.width ?? 0) : (metadata.height ?? 0);
  const longEdge = box ? Math.max(box.width, box.height) : 0;
  // From the pixels really made: the styled image's own, when its engine enlarged them already.
  const native =
    row.upscaled_by && row.native_width && row.native_height
      ? { width: row.native_width, height: row.native_height }
      : row.upscaled_by
        ? null
        : { width: sourceWidth, height: sourceHeight };
  let finalSize = { width: sourceWidth, height: sourceHeight };
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
    finalSize = enlargedSize(sourceWidth, sourceHeight, longEdge);
    const enlarged = await upscaleWithFallback(args.upscaler ?? localUpscaler, source, finalSize);
    pipeline = upscaledPixels(enlarged);
    upscaledBy = upscaledByOf(enlarged);
  } else if (box) {
    pipeline = pipeline.resize({ ...box, fit: "inside", withoutEnlargement: true });
    const scale = Math.min(1, box.width / sourceWidth, box.height / sourceHeight);
    finalSize = {
      width: Math.round(sourceWidth * scale),
      height: Math.round(sourceHeight * scale),
    };
  }
  // How the copy was enlarged, from the pixels made to its own size; nothing when it is not larger.
  const enlargedBy = joinUpscaling(row.upscaled_by, upscaledBy);
  const description =
    enlargedBy &&
    (!native || Math.max(finalSize.width, finalSize.height) > Math.max(native.width, native.height))
      ? upscaleLabel(enlargedBy, finalSize, native)
      : undefined;
  const xmp = disclosureXmp(creatorTool, sourceType, description);
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

  const encoded = await output.toBuffer({ resolveWithObject: true });
  // The one place an optimized copy is made: it is stored with its manifest, never without.
  const signed = await args.credentials.sign(encoded.data, {
    digitalSourceType: sourceType,
    softwareAgent: creatorTool,
    when: args.now,
    original: originalIngredientIn(source),
    edited: optimizationSentence(settings, encoded.info, description),
  });
  const key = newFileKey("optimized", settings.format);
  await store.write(key, signed);
  const updated = await db
    .updateTable("stylized_images")
    .set({
      optimized_file_key: key,
      optimized_format: settings.format,
      optimized_quality: settings.quality,
      optimized_resolution: settings.resolution,
      optimized_width: encoded.info.width,
      optimized_height: encoded.info.height,
      optimized_bytes: signed.length,
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
}

const FORMAT_NAMES: Record<OptimizationSettings["format"], string> = {
  jpg: "JPEG",
  png: "PNG",
  webp: "WebP",
};

/** What an optimization did, as its Content Credentials' `c2pa.edited` action says it. */
export function optimizationSentence(
  settings: OptimizationSettings,
  size: { width: number; height: number },
  /** How the copy was enlarged ("upscaled with Lanczos ×2"), when it is larger than the pixels made. */
  upscaling: string | undefined,
): string {
  const parts = [
    settings.format === "png"
      ? "PNG (lossless)"
      : `${FORMAT_NAMES[settings.format]} at quality ${settings.quality}`,
    `${size.width} × ${size.height} px${upscaling ? `, ${upscaling}` : ""}`,
  ];
  if (settings.socialOptimized) parts.push("sharpened for social media");
  if (settings.watermark) parts.push(`watermarked with the ${PRODUCT_NAME} name`);
  return `Optimized for delivery by ${PRODUCT_NAME}: ${parts.join(", ")}.`;
}
