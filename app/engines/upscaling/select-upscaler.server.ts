import type { Config } from "~/infra/config.server";
import { createFalUpscaler, FAL_UPSCALE_MODEL } from "~/engines/upscaling/fal-upscaler.server";
import type { UpscaleResult, Upscaler, UpscaleTarget } from "~/engines/upscaling/upscaler.server";
import { localUpscaler } from "~/engines/upscaling/upscaler.server";

/**
 * The best upscaler this process has: fal.ai's when FAL_KEY is set (within
 * FAL_TIMEOUT_SECONDS), otherwise the local Lanczos-3 resize. Chosen per
 * call, like the style engine.
 */
export function selectUpscaler(config: Pick<Config, "FAL_KEY" | "FAL_TIMEOUT_SECONDS">): Upscaler {
  if (config.FAL_KEY)
    return createFalUpscaler({
      credentials: config.FAL_KEY,
      timeoutMs: Math.min(config.FAL_TIMEOUT_SECONDS, 90) * 1000,
    });
  return localUpscaler;
}

/** What a file records of an upscaler's work (stylized images' and listings' `upscaled_by`). */
export function upscaledByOf(result: Pick<UpscaleResult, "engine">): "fal-ai/esrgan" | "lanczos3" {
  return result.engine === "fal" ? FAL_UPSCALE_MODEL : "lanczos3";
}

/**
 * Enlarges with the given upscaler; when that is fal.ai's and it fails, with
 * the local Lanczos-3 resize instead (a sale or an optimization does not fail
 * because fal.ai is down). The result says which one made the pixels.
 */
export async function upscaleWithFallback(
  upscaler: Upscaler,
  input: Buffer,
  target: UpscaleTarget,
): Promise<UpscaleResult> {
  try {
    return await upscaler.upscale(input, target);
  } catch (error) {
    if (upscaler === localUpscaler) throw error;
    console.warn("The upscaler failed; enlarging with Lanczos-3 instead:", error);
    return localUpscaler.upscale(input, target);
  }
}
