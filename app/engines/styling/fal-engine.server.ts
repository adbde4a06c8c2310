import { ApiError, createFalClient, type FalClient } from "@fal-ai/client";
import { doNotStoreIo, ESRGAN_MODEL, esrganInput, KONTEXT_MODEL, kontextInput } from "~/engines/fal-inputs.server";
import sharp from "sharp";
import type { StyleId } from "~/lib/styles";
import {
  DIGITAL_SOURCE_TYPES,
  encodeStyledImage,
  STYLED_MAX_EDGE,
} from "~/engines/styling/ai-disclosure.server";
import type { FalStyleModel } from "~/engines/styling/fal-models.server";
import type { StyleEngine, StyleResult } from "~/engines/styling/style-engine.server";
import { StyleEngineError } from "~/engines/styling/style-engine-error.server";
import { readCapped } from "~/infra/capped-read.server";

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
 * smaller than the upload (or than STYLED_MAX_EDGE), so a sold file keeps the
 * upload's detail. Input `image_url`, `scale` (2 by default), `model`,
 * `output_format`; output `{ image: { url, width, height } }`.
 */
export const FAL_UPSCALER_MODEL = ESRGAN_MODEL;
/** The enlargement used when fal's upscaler is off or fails: sharp's Lanczos (a=3) resampling. */
export const LANCZOS_UPSCALE = "lanczos3";
/** The most the upscaler is asked to enlarge by (Real-ESRGAN's own x4 model). */
const MAX_UPSCALER_FACTOR = 4;

/** The photo sent to fal.ai: re-encoded (no metadata leaves the server) and no bigger than the model needs. */
const UPLOAD_MAX_EDGE = 2048;
/** A generated image bigger than this is refused: reading stops as soon as the body passes it. */
export const MAX_RESULT_BYTES = 25 * 1024 * 1024;
/**
 * A generated image with more pixels than this is refused before it is decoded
 * (sharp's limitInputPixels): a small file can declare a huge canvas, and
 * decoding it would take width x height x channels bytes of memory.
 */
export const MAX_RESULT_PIXELS = 40_000_000;
/**
 * The hosts a result may be downloaded from. The result URL comes from fal's
 * response body, so it is checked before the server fetches it: anything else
 * (an internal address, a foreign host, plain http, another port) is refused.
 * fal serves generated files and uploads from its CDN, https://v3.fal.media/files/...,
 * falling back to https://fal.media (and other *.fal.media hosts such as
 * v3b.fal.media); fal.ai and fal.run are fal's own domains (e.g. cdn.fal.ai).
 */
export const FAL_RESULT_HOSTS: readonly string[] = ["fal.media", "fal.ai", "fal.run"];
/**
 * fal's own Google Cloud Storage bucket, where its documentation's example
 * outputs (and some models' outputs) live: only this bucket's path on the
 * shared storage.googleapis.com host is accepted, never other buckets.
 */
export const FAL_RESULT_BUCKET = { host: "storage.googleapis.com", pathPrefix: "/falserverless/" };
/** The shortest lifetime the client names ("immediate"): an uploaded photo never expires sooner. */
const MIN_UPLOAD_EXPIRY_SECONDS = 60;
const CANCEL_WAIT_MS = 5000;

/** fal's error types (queue status `error_type`) that describe its infrastructure, not the input. */
const TRANSIENT_ERROR_TYPES = new Set([
  "request_timeout",
  "startup_timeout",
  "runner_scheduling_failure",
  "runner_connection_timeout",
  "runner_disconnected",
  "runner_connection_refused",
  "runner_connection_error",
  "runner_incomplete_response",
  "runner_server_error",
  "internal_error",
]);

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
} as const;

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
      stylizeWithFal(options, input, style, callOptions?.signal),
  };
}

async function stylizeWithFal(
  options: FalEngineOptions,
  input: Buffer,
  style: StyleId,
  signal: AbortSignal | undefined,
): Promise<StyleResult> {
  const entry = options.styles[style];
  if (!entry) throw new StyleEngineError("This style is not available.", false);
  const fetchFn: typeof fetch =
    options.fetch ?? ((resource, init) => globalThis.fetch(resource, init));
  // A client per call: it reads its fetch at creation, and creation is cheap.
  const client = createFalClient({ credentials: options.credentials, fetch: fetchFn, requestMiddleware: doNotStoreIo });

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const abort = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
  const progress: { requestId?: string; model?: string } = {};

  try {
    const work = runRequest(
      {
        client,
        fetchFn,
        signal: abort,
        pollIntervalMs: options.pollIntervalMs ?? 1000,
        expiresIn: storageExpirySeconds(options.timeoutMs),
        progress,
      },
      entry,
      input,
      options.upscaler === undefined ? FAL_UPSCALER_MODEL : options.upscaler,
    );
    // Settle on the deadline even if a call inside ignores the signal (storage upload, a client retry wait).
    work.catch(() => undefined);
    return await Promise.race([work, rejectOnAbort(abort)]);
  } catch (error) {
    if (abort.aborted) {
      if (progress.requestId)
        await cancelQuietly(client, progress.model ?? entry.model, progress.requestId);
      if (deadline.signal.aborted)
        throw new StyleEngineError(FAL_MESSAGES.timeout, true, { cause: error });
      throw new StyleEngineError(FAL_MESSAGES.cancelled, true, { cause: error });
    }
    throw toStyleEngineError(error);
  } finally {
    clearTimeout(timer);
  }
}

/** What one styling request's calls to fal share. */
interface FalCall {
  client: FalClient;
  fetchFn: typeof fetch;
  signal: AbortSignal;
  pollIntervalMs: number;
  expiresIn: number;
  /** The request in flight (cancelled if the caller gives up). */
  progress: { requestId?: string; model?: string };
}

interface FalImageOutput {
  images?: Array<{ url?: unknown }>;
  image?: { url?: unknown };
  has_nsfw_concepts?: unknown;
}

async function runRequest(
  call: FalCall,
  entry: FalStyleModel,
  input: Buffer,
  upscaler: typeof FAL_UPSCALER_MODEL | null,
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
  const imageUrl = await call.client.storage.upload(
    new Blob([new Uint8Array(photo.data)], { type: "image/jpeg" }),
    { lifecycle: { expiresIn: call.expiresIn } },
  );
  call.signal.throwIfAborted();

  const kontext = entry.kontext;
  const output = kontext
    ? // The default model with the app's own options: typed by fal's endpoint types.
      await runQueued(call, KONTEXT_MODEL, (options) =>
        call.client.queue.submit(KONTEXT_MODEL, { ...options, input: kontextInput(kontext, entry.prompt, imageUrl) }),
      )
    : // A model or input the operator configured (FAL_MODEL, FAL_STYLES): sent as configured.
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
  let bytes = await download(call.fetchFn, url, call.signal);

  // The sold file keeps the upload's detail: at least its long edge, up to STYLED_MAX_EDGE.
  const wanted = Math.min(Math.max(photo.info.width, photo.info.height), STYLED_MAX_EDGE);
  const generated = await longEdgeOf(bytes);
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

  const enlarging = upscaledBy !== null;
  const normalised = sharp(bytes, { failOn: "error", limitInputPixels: MAX_RESULT_PIXELS })
    .rotate()
    .resize(enlarging ? wanted : STYLED_MAX_EDGE, enlarging ? wanted : STYLED_MAX_EDGE, {
      fit: "inside",
      withoutEnlargement: !enlarging,
      kernel: "lanczos3",
    })
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb");
  try {
    const result = await encodeStyledImage(
      normalised,
      `fal.ai ${entry.model}${upscaledBy ? `; enlarged with ${upscaledBy}` : ""}`,
      {
        sourceType: DIGITAL_SOURCE_TYPES.fal,
      },
    );
    return { ...result, upscaledBy };
  } catch (error) {
    if (await exceedsPixelLimit(bytes))
      throw new StyleEngineError(FAL_MESSAGES.tooLarge, false, { cause: error });
    throw new StyleEngineError(FAL_MESSAGES.badResult, true, { cause: error });
  }
}

/** Submits to fal's queue, polls until COMPLETED and answers the result's data. */
async function runQueued(
  call: FalCall,
  model: string,
  submit: (options: { storageSettings: { expiresIn: number }; abortSignal: AbortSignal }) => Promise<{ request_id: string }>,
): Promise<FalImageOutput> {
  const { client, signal } = call;
  const submitted = await submit({
    // The generated image expires on fal's CDN too: it is downloaded as soon as the request completes.
    storageSettings: { expiresIn: call.expiresIn },
    abortSignal: signal,
  });
  call.progress.requestId = submitted.request_id;
  call.progress.model = model;

  for (;;) {
    const status = await client.queue.status(model, {
      requestId: submitted.request_id,
      logs: false,
      abortSignal: signal,
    });
    if (status.status === "COMPLETED") {
      const failure = status as { error?: unknown; error_type?: unknown };
      if (failure.error) {
        const transient =
          typeof failure.error_type === "string" && TRANSIENT_ERROR_TYPES.has(failure.error_type);
        throw new StyleEngineError(
          transient ? FAL_MESSAGES.unavailable : FAL_MESSAGES.rejected,
          transient,
          {
            cause: new Error(
              `fal request failed: ${String(failure.error)} (${String(failure.error_type)})`,
            ),
          },
        );
      }
      break;
    }
    await sleep(call.pollIntervalMs, signal);
  }

  const result = await client.queue.result(model, {
    requestId: submitted.request_id,
    abortSignal: signal,
  });
  call.progress.requestId = undefined;
  return result.data as FalImageOutput;
}

function imageUrlOf(output: FalImageOutput): string {
  const url = output.images?.[0]?.url ?? output.image?.url;
  if (typeof url !== "string" || url === "") throw new StyleEngineError(FAL_MESSAGES.noImage, true);
  return url;
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
    const output = await runQueued(call, upscaler, (options) =>
      call.client.queue.submit(upscaler, { ...options, input: esrganInput(imageUrl, Math.min(MAX_UPSCALER_FACTOR, Math.max(2, factor))) }),
    );
    const bytes = await download(call.fetchFn, imageUrlOf(output), call.signal);
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

/** An image's long edge from its header (undefined when it is not an image, or over MAX_RESULT_PIXELS). */
async function longEdgeOf(bytes: Buffer): Promise<number | undefined> {
  const meta = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
  if (!meta?.width || !meta.height || meta.width * meta.height > MAX_RESULT_PIXELS)
    return undefined;
  return Math.max(meta.width, meta.height);
}

/**
 * How long fal keeps what we upload or generate: the request's whole time
 * limit (fal needs the photo only while the request runs, and the result is
 * downloaded before the limit), and never less than the client's shortest.
 */
export function storageExpirySeconds(timeoutMs: number): number {
  return Math.max(MIN_UPLOAD_EXPIRY_SECONDS, Math.ceil(timeoutMs / 1000));
}

/** Whether a result URL is one the server may fetch: https on fal's hosts, default port, no credentials. */
export function isFalResultUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" || url.port !== "" || url.username || url.password) return false;
  const host = url.hostname;
  if (FAL_RESULT_HOSTS.some((allowed) => host === allowed || host.endsWith(`.${allowed}`)))
    return true;
  return host === FAL_RESULT_BUCKET.host && url.pathname.startsWith(FAL_RESULT_BUCKET.pathPrefix);
}

/** Whether an image's header declares more pixels than MAX_RESULT_PIXELS (reads the header only). */
async function exceedsPixelLimit(bytes: Buffer): Promise<boolean> {
  const meta = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
  return Boolean(meta?.width && meta.height && meta.width * meta.height > MAX_RESULT_PIXELS);
}

/**
 * Downloads the generated image (never hotlinked: it is stored on our volume by
 * the caller) from fal's hosts only, without following redirects, reading at
 * most MAX_RESULT_BYTES whatever Content-Length says.
 */
async function download(fetchFn: typeof fetch, url: string, signal: AbortSignal): Promise<Buffer> {
  if (!isFalResultUrl(url)) {
    throw new StyleEngineError(FAL_MESSAGES.untrustedResult, false, {
      cause: new Error(`fal returned its result at a URL outside its hosts: ${describeUrl(url)}`),
    });
  }
  const response = await fetchFn(url, { signal, redirect: "manual" });
  if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
    discard(response);
    throw new StyleEngineError(FAL_MESSAGES.untrustedResult, false, {
      cause: new Error(
        `Downloading the result answered a redirect (HTTP ${response.status}) to ${describeUrl(response.headers.get("location") ?? "")}`,
      ),
    });
  }
  if (!response.ok) {
    discard(response);
    throw new StyleEngineError(
      response.status >= 500 ? FAL_MESSAGES.unavailable : FAL_MESSAGES.noImage,
      true,
      {
        cause: new Error(`Downloading the result answered HTTP ${response.status}`),
      },
    );
  }
  const declared = Number(response.headers.get("content-length"));
  if (declared > MAX_RESULT_BYTES) {
    discard(response);
    throw new StyleEngineError(FAL_MESSAGES.tooLarge, false, {
      cause: new Error(`The result declared ${declared} bytes`),
    });
  }
  return readCapped(
    response.body,
    MAX_RESULT_BYTES,
    () =>
      new StyleEngineError(FAL_MESSAGES.tooLarge, false, {
        cause: new Error(`The result passed ${MAX_RESULT_BYTES} bytes`),
      }),
  );
}

/** Releases a body we will not read (not awaited, like the cancel in readCapped). */
function discard(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}

/** A URL's scheme and host for a log line (no path or query, which may carry signatures). */
function describeUrl(value: string): string {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}`;
  } catch {
    return JSON.stringify(value.slice(0, 100));
  }
}

/** Asks fal to cancel a request we gave up on; never fails and never waits long. */
async function cancelQuietly(client: FalClient, model: string, requestId: string): Promise<void> {
  const attempt = client.queue.cancel(model, { requestId }).catch(() => undefined);
  await Promise.race([
    attempt,
    new Promise((resolve) => setTimeout(resolve, CANCEL_WAIT_MS).unref()),
  ]);
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Maps anything thrown on the way to a StyleEngineError with a sentence for the creator. */
export function toStyleEngineError(error: unknown): StyleEngineError {
  if (error instanceof StyleEngineError) return error;
  if (error instanceof ApiError) {
    const status = error.status;
    const details: unknown = (error.body as { detail?: unknown } | undefined)?.detail;
    const types = Array.isArray(details)
      ? details
          .map((detail) => (detail as { type?: unknown })?.type)
          .filter((type) => typeof type === "string")
      : [];
    if (types.includes("content_policy_violation")) {
      return new StyleEngineError(FAL_MESSAGES.unsafe, false, { cause: error });
    }
    if (status === 401 || status === 403)
      return new StyleEngineError(FAL_MESSAGES.credentials, false, { cause: error });
    if (status === 408 || status === 429)
      return new StyleEngineError(FAL_MESSAGES.busy, true, { cause: error });
    if (status >= 500)
      return new StyleEngineError(FAL_MESSAGES.unavailable, true, { cause: error });
    return new StyleEngineError(FAL_MESSAGES.rejected, false, { cause: error });
  }
  if (error instanceof TypeError && /fetch failed|network/i.test(error.message)) {
    return new StyleEngineError(FAL_MESSAGES.unreachable, true, { cause: error });
  }
  return new StyleEngineError(FAL_MESSAGES.unavailable, true, { cause: error });
}
