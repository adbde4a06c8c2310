import sharp from "sharp";
import type { Sharp } from "sharp";

/**
 * Enlarging an image to a pixel size a buyer or an agency asks for (Adobe
 * Stock takes nothing under 4 megapixels). One small interface with two
 * makers: fal.ai's Real-ESRGAN upscaler when FAL_KEY is set (it draws
 * detail), otherwise sharp's Lanczos-3 resize (offline; it only
 * interpolates). Each answers, in words, which method made the pixels, so
 * the caller can say so where the file is described.
 */

export interface UpscaleTarget {
  width: number;
  height: number;
}

export interface UpscaleResult {
  /**
   * The enlarged image's pixels, exactly `target` in size: raw, `channels` bytes a pixel (no
   * encode and decode between the upscaler and what its caller encodes; read it with upscaledPixels).
   */
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
  /** "fal" when fal.ai made the pixels, "lanczos3" when only the local resize did. */
  engine: "fal" | "lanczos3";
  /** One sentence for the file's description, e.g. "Lanczos-3 resize (sharp), from 1024×1024". */
  method: string;
}

export interface Upscaler {
  upscale(
    input: Buffer,
    target: UpscaleTarget,
    options?: { signal?: AbortSignal },
  ): Promise<UpscaleResult>;
}

/** Width and height at least `minPixels` in area with the aspect ratio of `width`×`height` (never smaller than given). */
export function sizeForMinimumPixels(
  width: number,
  height: number,
  minPixels: number,
): UpscaleTarget {
  if (width * height >= minPixels) return { width, height };
  const scale = Math.sqrt(minPixels / (width * height));
  let w = Math.ceil(width * scale);
  let h = Math.ceil(height * scale);
  while (w * h < minPixels) {
    if (w / width <= h / height) w += 1;
    else h += 1;
  }
  return { width: w, height: h };
}

/** The pixels of an upscaler's result, for a sharp pipeline. */
export function upscaledPixels(result: UpscaleResult): Sharp {
  return sharp(result.data, {
    raw: { width: result.width, height: result.height, channels: result.channels },
  });
}

/** The result of a Lanczos-3 resize of `input` to exactly `target`, made by `engine` as `method` says. */
export async function resizedResult(
  input: Buffer | Sharp,
  target: UpscaleTarget,
  engine: UpscaleResult["engine"],
  method: string,
): Promise<UpscaleResult> {
  const pipeline = Buffer.isBuffer(input) ? sharp(input, { failOn: "error" }).rotate() : input;
  const { data, info } = await pipeline
    .resize(target.width, target.height, { kernel: "lanczos3", fit: "fill" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data,
    width: info.width,
    height: info.height,
    channels: info.channels,
    engine,
    method,
  };
}

/** The offline maker: sharp's Lanczos-3 resize. */
export const localUpscaler: Upscaler = {
  async upscale(input, target) {
    const meta = await sharp(input).metadata();
    return resizedResult(
      input,
      target,
      "lanczos3",
      `Lanczos-3 resize (sharp) from ${meta.width}×${meta.height} to ${target.width}×${target.height}`,
    );
  },
};
