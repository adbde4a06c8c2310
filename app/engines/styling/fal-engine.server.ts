import sharp from "sharp";
import {
  downloadResult,
  enlargeWithEsrgan,
  type FalCall,
  falFailureOf,
  type FalFailureReason,
  imageUrlOf,
  MAX_RESULT_PIXELS,
  runQueued,
  uploadImage,
  withFalCall,
} from "~/engines/fal/fal-client.server";
import { ESRGAN_MODEL, KONTEXT_MODEL, kontextInput } from "~/engines/fal/fal-inputs.server";
import type { StyleId } from "~/lib/styles";
import { DIGITAL_SOURCE_TYPES, encodeStyledImage } from "~/engines/styling/ai-disclosure.server";
import { saleLongEdge, upscaleLabel } from "~/lib/sale-size";
import type { FalStyleModel } from "~/engines/styling/fal-models.server";
import type { StyleEngine, StyleResult } from "~/engines/styling/style-engine.server";
import { StyleEngineError } from "~/engines/styling/style-engine-error.server";

export {
  FAL_RESULT_BUCKET,
  FAL_RESULT_HOSTS,
  isFalResultUrl,
  MAX_RESULT_BYTES,
  MAX_RESULT_PIXELS,
  storageExpirySeconds,
} from "~/engines/fal/fal-client.server";

export interface FalEngineOptions {
  credentials: string;
  styles: Record<StyleId, FalStyleModel>;
  /** The whole request (upload, queue, generation, download) must finish within this. */
  timeoutMs: number;
  /** How often the queue status is asked for. */
  pollIntervalMs?: number;
  /** Defaults to the global fetch, looked up at each call (so test interceptors installed later still see the calls). */
  fetch?: typeof fetch;
  /**
   * The fal endpoint that enlarges a result smaller than the upload (default
   * FAL_UPSCALER_MODEL); null enlarges with sharp's Lanczos resampling only.
   */
  upscaler?: typeof FAL_UPSCALER_MODEL | null;
}

/**
 * fal's Real-ESRGAN upscaler: asked when the style's model answers an image
 * smaller than a sold file must be (saleLongEdge: the upload's long edge, and
 * at least 2048 px), so the file a buyer gets is drawn by the model, not only
 * interpolated, and keeps the upload's detail. Input `image_url`, `scale` (2 by default), `model`,
 * `output_format`; output `{ image: { url, width, height } }`.
 */
export const FAL_UPSCALER_MODEL = ESRGAN_MODEL;
/** The enlargement used when fal's upscaler is off or fails: sharp's Lanczos (a=3) resampling. */
export const LANCZOS_UPSCALE = "lanczos3";
/** The photo sent to fal.ai: re-encoded (no metadata leaves the server) and no bigger than the model needs. */
const UPLOAD_MAX_EDGE = 2048;

export const FAL_MESSAGES = {
  timeout: "The AI service took too long to respond. Please try again.",
  unsafe: "The AI service flagged this image as unsafe and did not style it.",
  rejected: "The AI service could not style this image.",
  busy: "The AI service is busy right now. Please try again.",
  unavailable: "The AI service is having trouble right now. Please try again.",
  unreachable: "Could not reach the AI service. Please try again.",
  credentials: "The AI service is not set up correctly. Please contact support.",
  badResult: "The AI service returned an image we could not read. Please try again.",
  untrustedResult:
    "The AI service returned its image from an address we do not download from, so it was not used.",
  tooLarge: "The AI service returned an image too large to use.",
  noImage: "The AI service did not return an image. Please try again.",
  cancelled: "Styling was cancelled.",
} as const satisfies Record<FalFailureReason | "badResult", string>;

/**
 * Styling through fal.ai's queue with @fal-ai/client: upload the photo to fal
 * storage, submit it with the style's model and instruction, poll the status
 * until COMPLETED, fetch the result, download the image into our hands (never
 * hotlinked) and re-encode it like the local engine's output. Every failure
 * becomes a StyleEngineError with a sentence for the creator.
 *
 * The photo and the generated image expire on fal's CDN once the request's
 * time limit is over. The download accepts only fal's hosts (FAL_RESULT_HOSTS),
 * follows no redirect, stops reading past MAX_RESULT_BYTES and refuses images
 * over MAX_RESULT_PIXELS; such a refused result is a final failure (asking
 * again would not change what fal answers).
 */
export function createFalEngine(options: FalEngineOptions): StyleEngine {
  return {
    id: "fal",
    stylize: (input, style, callOptions) =>
      stylizeWithFal(options, input, style, callOptions?.signal, callOptions?.seed),
  };
}

async function stylizeWithFal(
  options: FalEngineOptions,
  input: Buffer,
  style: StyleId,
  signal: AbortSignal | undefined,
  seed: number | undefined,
): Promise<StyleResult> {
  const entry = options.styles[style];
  if (!entry) throw new StyleEngineError("This style is not available.", false);
  try {
    return await withFalCall(options, signal, (call) =>
      runRequest(
        call,
        entry,
        input,
        options.upscaler === undefined ? FAL_UPSCALER_MODEL : options.upscaler,
        seed,
      ),
    );
  } catch (error) {
    throw toStyleEngineError(error);
  }
}

async function runRequest(
  call: FalCall,
  entry: FalStyleModel,
  input: Buffer,
  upscaler: typeof FAL_UPSCALER_MODEL | null,
  seed: number | undefined,
): Promise<StyleResult> {
  const photo = await sharp(input)
    .rotate()
    .resize(UPLOAD_MAX_EDGE, UPLOAD_MAX_EDGE, { fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 92 })
    .toBuffer({ resolveWithObject: true })
    .catch((error: unknown) => {
      throw new StyleEngineError("This file is not an image we can read.", false, { cause: error });
    });
  const imageUrl = await uploadImage(call, photo.data, "image/jpeg");

  const kontext = entry.kontext;
  const output = kontext
    ? // The default model with the app's own options: typed by fal's endpoint types.
      await runQueued(call, KONTEXT_MODEL, (options) =>
        call.client.queue.submit(KONTEXT_MODEL, {
          ...options,
          input: kontextInput(kontext, entry.prompt, imageUrl, seed),
        }),
      )
    : // A model or input the operator configured (FAL_MODEL, FAL_STYLES): sent as configured
      // (no seed: not every model takes one; the style still records the seed it was asked with).
      await runQueued(call, entry.model, (options) =>
        call.client.queue.submit(entry.model, {
          ...options,
          input: {
            ...entry.input,
            prompt: entry.prompt,
            [entry.imageField]: entry.imageField === "image_urls" ? [imageUrl] : imageUrl,
          },
        }),
      );
  if (Array.isArray(output.has_nsfw_concepts) && output.has_nsfw_concepts.some(Boolean)) {
    throw new StyleEngineError(FAL_MESSAGES.unsafe, false);
  }
  const url = imageUrlOf(output);
  let bytes = await downloadResult(call, url);

  // The file is sold at saleLongEdge (docs/decisions/092): the upload's long edge, at least 2048 px.
  const original = await sharp(input).metadata();
  const wanted = saleLongEdge(Math.max(original.width ?? 0, original.height ?? 0));
  const made = await sizeOf(bytes);
  const generated = made && Math.max(made.width, made.height);
  let upscaledBy: string | null = null;
  if (generated !== undefined && generated < wanted) {
    if (upscaler) {
      const enlarged = await upscaleWithFal(call, upscaler, url, Math.ceil(wanted / generated));
      if (enlarged) {
        bytes = enlarged;
        upscaledBy = upscaler;
      }
    }
    // What fal's upscaler did not bring to the wanted size (or all of it, without one) is Lanczos.
    const after = upscaledBy ? await longEdgeOf(bytes) : generated;
    if (after !== undefined && after < wanted)
      upscaledBy = upscaledBy ? `${upscaledBy}+${LANCZOS_UPSCALE}` : LANCZOS_UPSCALE;
  }

  // Brought to the wanted long edge: enlarged (Lanczos-3 for what is left) or scaled down to it.
  const normalised = sharp(bytes, { failOn: "error", limitInputPixels: MAX_RESULT_PIXELS })
    .rotate()
    .resize(wanted, wanted, { fit: "inside", kernel: "lanczos3" })
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb");
  try {
    const result = await encodeStyledImage(
      normalised,
      `fal.ai ${entry.model}${upscaledBy ? `; enlarged with ${upscaledBy}` : ""}`,
      {
        sourceType: DIGITAL_SOURCE_TYPES.fal,
        description:
          upscaledBy && made
            ? upscaleLabel(upscaledBy, { width: wanted, height: wanted }, made)
            : undefined,
      },
    );
    return {
      ...result,
      upscaledBy,
      ...(upscaledBy && made ? { native: made } : {}),
    };
  } catch (error) {
    if (await exceedsPixelLimit(bytes))
      throw new StyleEngineError(FAL_MESSAGES.tooLarge, false, { cause: error });
    throw new StyleEngineError(FAL_MESSAGES.badResult, true, { cause: error });
  }
}

/**
 * Enlarges fal's result with fal's upscaler (the result is still on fal's CDN,
 * so it is passed by URL). Answers undefined when the upscaler fails: the
 * caller then enlarges with Lanczos instead; only the caller's abort or the
 * deadline stops the whole request.
 */
async function upscaleWithFal(
  call: FalCall,
  upscaler: typeof FAL_UPSCALER_MODEL,
  imageUrl: string,
  factor: number,
): Promise<Buffer | undefined> {
  try {
    const { bytes } = await enlargeWithEsrgan(call, imageUrl, factor);
    if ((await longEdgeOf(bytes)) === undefined)
      throw new Error("The upscaled image could not be read");
    return bytes;
  } catch (error) {
    if (call.signal.aborted) throw error;
    console.warn(
      `fal upscaler ${upscaler} failed; enlarging with ${LANCZOS_UPSCALE} instead:`,
      error,
    );
    return undefined;
  }
}

/** An image's size from its header (undefined when it is not an image, or over MAX_RESULT_PIXELS). */
async function sizeOf(bytes: Buffer): Promise<{ width: number; height: number } | undefined> {
  const meta = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
  if (!meta?.width || !meta.height || meta.width * meta.height > MAX_RESULT_PIXELS)
    return undefined;
  return { width: meta.width, height: meta.height };
}

/** An image's long edge from its header (undefined as for sizeOf). */
async function longEdgeOf(bytes: Buffer): Promise<number | undefined> {
  const size = await sizeOf(bytes);
  return size && Math.max(size.width, size.height);
}

/** Whether an image's header declares more pixels than MAX_RESULT_PIXELS (reads the header only). */
async function exceedsPixelLimit(bytes: Buffer): Promise<boolean> {
  const meta = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
  return Boolean(meta?.width && meta.height && meta.width * meta.height > MAX_RESULT_PIXELS);
}

/** Maps anything thrown on the way to a StyleEngineError with a sentence for the creator. */
export function toStyleEngineError(error: unknown): StyleEngineError {
  if (error instanceof StyleEngineError) return error;
  const failure = falFailureOf(error);
  return new StyleEngineError(FAL_MESSAGES[failure.reason], failure.retryable, {
    cause: failure.cause,
  });
}
