import sharp from "sharp";
import {
  enlargeWithEsrgan,
  FalFailure,
  MAX_RESULT_PIXELS,
  uploadImage,
  withFalCall,
} from "~/engines/fal/fal-client.server";
import { ESRGAN_MODEL } from "~/engines/fal/fal-inputs.server";
import type { Upscaler } from "~/engines/upscaling/upscaler.server";
import { resizedResult } from "~/engines/upscaling/upscaler.server";

/**
 * Upscaling through fal.ai: Real-ESRGAN (`fal-ai/esrgan`), a super-resolution
 * network that sharpens and adds plausible detail without redrawing the
 * picture (unlike diffusion upscalers, which can change a face). The photo
 * goes to fal's storage and through the same Real-ESRGAN path the styling
 * engine uses (the fal client: queue, result downloaded from fal's hosts
 * only), then is brought to the exact size asked for with a Lanczos-3 resize.
 */

export const FAL_UPSCALE_MODEL = ESRGAN_MODEL;

export interface FalUpscalerOptions {
  credentials: string;
  /** The whole request (upload, queue, upscaling, download) must finish within this. */
  timeoutMs: number;
  pollIntervalMs?: number;
  /** Defaults to the global fetch, looked up at each call (so test interceptors see the calls). */
  fetch?: typeof fetch;
}

export class UpscaleError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UpscaleError";
  }
}

export function createFalUpscaler(options: FalUpscalerOptions): Upscaler {
  return {
    async upscale(input, target, callOptions) {
      const source = sharp(input, { failOn: "error" }).rotate();
      const meta = await sharp(input).metadata();
      const photo = await source.clone().png({ compressionLevel: 1 }).toBuffer();
      const factor = Math.ceil(Math.max(target.width / meta.width!, target.height / meta.height!));
      try {
        const { bytes, scale } = await withFalCall(options, callOptions?.signal, async (call) => {
          const imageUrl = await uploadImage(call, photo, "image/png");
          return enlargeWithEsrgan(call, imageUrl, factor);
        });
        const enlarged = sharp(bytes, { failOn: "error", limitInputPixels: MAX_RESULT_PIXELS });
        const got = await enlarged.metadata();
        return await resizedResult(
          enlarged,
          target,
          "fal",
          `fal.ai Real-ESRGAN (${FAL_UPSCALE_MODEL}, ×${scale}) from ${meta.width}×${meta.height} to ${got.width}×${got.height}` +
            (got.width === target.width && got.height === target.height
              ? ""
              : `, then Lanczos-3 to ${target.width}×${target.height}`),
        );
      } catch (error) {
        if (error instanceof FalFailure && error.reason === "timeout")
          throw new UpscaleError("fal.ai's upscaler took too long.", { cause: error });
        throw new UpscaleError(
          `fal.ai's upscaler failed (${error instanceof Error ? error.message.slice(0, 120) : "unknown error"}).`,
          { cause: error },
        );
      }
    },
  };
}
