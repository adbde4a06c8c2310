import { createFalClient } from "@fal-ai/client";
import { doNotStoreIo, ESRGAN_MODEL, esrganInput } from "~/engines/fal-inputs.server";
import sharp from "sharp";
import { readCapped } from "~/infra/capped-read.server";
import {
  isFalResultUrl,
  MAX_RESULT_BYTES,
  MAX_RESULT_PIXELS,
  storageExpirySeconds,
} from "~/engines/styling/fal-engine.server";
import type { Upscaler } from "~/engines/upscaling/upscaler.server";
import { lanczosResize } from "~/engines/upscaling/upscaler.server";

/**
 * Upscaling through fal.ai: Real-ESRGAN (`fal-ai/esrgan`), a super-resolution
 * network that sharpens and adds plausible detail without redrawing the
 * picture (unlike diffusion upscalers, which can change a face). The photo
 * goes to fal's storage, the request through fal's queue, and the result is
 * downloaded from fal's hosts only (the styling engine's checks), then
 * brought to the exact size asked for with a Lanczos-3 resize.
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
      const fetchFn: typeof fetch =
        options.fetch ?? ((resource, init) => globalThis.fetch(resource, init));
      const client = createFalClient({ credentials: options.credentials, fetch: fetchFn, requestMiddleware: doNotStoreIo });
      const deadline = AbortSignal.timeout(options.timeoutMs);
      const signal = callOptions?.signal
        ? AbortSignal.any([callOptions.signal, deadline])
        : deadline;
      const expiresIn = storageExpirySeconds(options.timeoutMs);

      const source = sharp(input, { failOn: "error" }).rotate();
      const meta = await sharp(input).metadata();
      const photo = await source.clone().png({ compressionLevel: 1 }).toBuffer();
      const factor = Math.min(
        4,
        Math.max(2, Math.ceil(Math.max(target.width / meta.width!, target.height / meta.height!))),
      );
      try {
        const imageUrl = await client.storage.upload(
          new Blob([new Uint8Array(photo)], { type: "image/png" }),
          { lifecycle: { expiresIn } },
        );
        signal.throwIfAborted();
        const result = await client.subscribe(FAL_UPSCALE_MODEL, {
          input: esrganInput(imageUrl, factor),
          pollInterval: options.pollIntervalMs ?? 1000,
          abortSignal: signal,
          storageSettings: { expiresIn },
        });
        const output = result.data as {
          image?: { url?: unknown };
          images?: Array<{ url?: unknown }>;
        };
        const url = output.image?.url ?? output.images?.[0]?.url;
        if (typeof url !== "string" || !isFalResultUrl(url))
          throw new UpscaleError("fal.ai answered no image from its own hosts.");
        const response = await fetchFn(url, { signal, redirect: "manual" });
        if (!response.ok)
          throw new UpscaleError(`Downloading fal.ai's image answered HTTP ${response.status}.`);
        const bytes = await readCapped(
          response.body,
          MAX_RESULT_BYTES,
          () => new UpscaleError("fal.ai's image is too large."),
        );
        const enlarged = sharp(bytes, { failOn: "error", limitInputPixels: MAX_RESULT_PIXELS });
        const got = await enlarged.metadata();
        const data = await lanczosResize(enlarged, target);
        return {
          data,
          width: target.width,
          height: target.height,
          engine: "fal",
          method:
            `fal.ai Real-ESRGAN (${FAL_UPSCALE_MODEL}, ×${factor}) from ${meta.width}×${meta.height} to ${got.width}×${got.height}` +
            (got.width === target.width && got.height === target.height
              ? ""
              : `, then Lanczos-3 to ${target.width}×${target.height}`),
        };
      } catch (error) {
        if (error instanceof UpscaleError) throw error;
        if (deadline.aborted)
          throw new UpscaleError("fal.ai's upscaler took too long.", { cause: error });
        throw new UpscaleError(
          `fal.ai's upscaler failed (${error instanceof Error ? error.message.slice(0, 120) : "unknown error"}).`,
          {
            cause: error,
          },
        );
      }
    },
  };
}
