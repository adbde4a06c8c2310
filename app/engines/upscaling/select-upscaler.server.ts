import type { Config } from "~/infra/config.server";
import { createFalUpscaler } from "~/engines/upscaling/fal-upscaler.server";
import type { Upscaler } from "~/engines/upscaling/upscaler.server";
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
