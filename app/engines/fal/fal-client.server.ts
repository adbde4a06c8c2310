import { ApiError, createFalClient, type FalClient } from "@fal-ai/client";
import { doNotStoreIo, ESRGAN_MODEL, esrganInput } from "~/engines/fal/fal-inputs.server";
import { readCapped } from "~/infra/capped-read.server";

/**
 * The app's one way to talk to fal.ai, used by the styling engine and the
 * upscaler alike: a client configured with the key (and `X-Fal-Store-IO: 0`),
 * uploads to fal storage, queue submissions polled until they complete, the
 * guarded download of a result, Real-ESRGAN enlargement, and the sorting of
 * whatever fails into a FalFailure whose `reason` each engine words for its
 * own users.
 */

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
/** The most Real-ESRGAN is asked to enlarge by (its own x4 model), and the least (its smallest step). */
const MAX_ESRGAN_FACTOR = 4;
const MIN_ESRGAN_FACTOR = 2;
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

/** Why a call to fal failed, in the terms an engine words for its users. */
export type FalFailureReason =
  | "timeout"
  | "cancelled"
  | "unsafe"
  | "rejected"
  | "busy"
  | "unavailable"
  | "unreachable"
  | "credentials"
  | "untrustedResult"
  | "tooLarge"
  | "noImage";

/** A failed call to fal: its reason, whether asking again may help, and the detail as `cause`. */
export class FalFailure extends Error {
  constructor(
    readonly reason: FalFailureReason,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(
      options?.cause instanceof Error
        ? `fal.ai: ${reason} (${options.cause.message})`
        : `fal.ai: ${reason}`,
      options,
    );
    this.name = "FalFailure";
  }
}

export interface FalCallOptions {
  credentials: string;
  /** The whole request (uploads, queue, generation, downloads) must finish within this. */
  timeoutMs: number;
  /** How often the queue status is asked for (default one second). */
  pollIntervalMs?: number;
  /** Defaults to the global fetch, looked up at each call (so test interceptors installed later still see the calls). */
  fetch?: typeof fetch;
}

/** What one request's calls to fal share. */
export interface FalCall {
  client: FalClient;
  fetchFn: typeof fetch;
  /** Aborted by the caller or at the deadline. */
  signal: AbortSignal;
  pollIntervalMs: number;
  /** How long fal keeps what is uploaded or generated for this request. */
  expiresIn: number;
  /** The request in flight (cancelled if the caller gives up). */
  progress: { requestId?: string; model?: string };
}

/** What fal's image endpoints answer: one image or a list, and (for some models) a safety flag per image. */
export interface FalImageOutput {
  images?: Array<{ url?: unknown }>;
  image?: { url?: unknown };
  has_nsfw_concepts?: unknown;
}

/**
 * Runs `work` with a fal client of its own (a client per call: it reads its
 * fetch at creation, and creation is cheap) under the deadline and the
 * caller's signal. It settles on the deadline even if a call inside ignores
 * the signal (a storage upload, a client retry wait); a queued request still
 * running then is cancelled, and the failure is a FalFailure "timeout" or
 * "cancelled". Anything else thrown passes through as it was.
 */
export async function withFalCall<T>(
  options: FalCallOptions,
  signal: AbortSignal | undefined,
  work: (call: FalCall) => Promise<T>,
): Promise<T> {
  const fetchFn: typeof fetch =
    options.fetch ?? ((resource, init) => globalThis.fetch(resource, init));
  const client = createFalClient({
    credentials: options.credentials,
    fetch: fetchFn,
    requestMiddleware: doNotStoreIo,
  });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const abort = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
  const call: FalCall = {
    client,
    fetchFn,
    signal: abort,
    pollIntervalMs: options.pollIntervalMs ?? 1000,
    expiresIn: storageExpirySeconds(options.timeoutMs),
    progress: {},
  };
  try {
    const running = work(call);
    running.catch(() => undefined);
    return await Promise.race([running, rejectOnAbort(abort)]);
  } catch (error) {
    if (abort.aborted) {
      if (call.progress.requestId && call.progress.model)
        await cancelQuietly(client, call.progress.model, call.progress.requestId);
      throw new FalFailure(deadline.signal.aborted ? "timeout" : "cancelled", true, {
        cause: error,
      });
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How long fal keeps what we upload or generate: the request's whole time
 * limit (fal needs the photo only while the request runs, and the result is
 * downloaded before the limit), and never less than the client's shortest.
 */
export function storageExpirySeconds(timeoutMs: number): number {
  return Math.max(MIN_UPLOAD_EXPIRY_SECONDS, Math.ceil(timeoutMs / 1000));
}

/** Uploads an encoded image to fal storage (expiring with the request) and answers its URL there. */
export async function uploadImage(
  call: FalCall,
  data: Buffer,
  contentType: string,
): Promise<string> {
  const url = await call.client.storage.upload(
    new Blob([new Uint8Array(data)], { type: contentType }),
    {
      lifecycle: { expiresIn: call.expiresIn },
    },
  );
  call.signal.throwIfAborted();
  return url;
}

/**
 * Submits to fal's queue (through `submit`, which names the endpoint and its
 * typed input), polls until COMPLETED and answers the result's data. A request
 * that completed with an error is a FalFailure: "unavailable" (retryable) when
 * fal names its own infrastructure, otherwise "rejected".
 */
export async function runQueued(
  call: FalCall,
  model: string,
  submit: (options: {
    storageSettings: { expiresIn: number };
    abortSignal: AbortSignal;
  }) => Promise<{ request_id: string }>,
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
        throw new FalFailure(transient ? "unavailable" : "rejected", transient, {
          cause: new Error(
            `fal request failed: ${String(failure.error)} (${String(failure.error_type)})`,
          ),
        });
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

/** The first image's URL in fal's answer; a FalFailure "noImage" when there is none. */
export function imageUrlOf(output: FalImageOutput): string {
  const url = output.images?.[0]?.url ?? output.image?.url;
  if (typeof url !== "string" || url === "") throw new FalFailure("noImage", true);
  return url;
}

/**
 * Real-ESRGAN's enlargement of an image already on fal's hosts (by URL, so no
 * second upload), by `factor` brought within what the model does (2 to 4):
 * answers the enlarged image's bytes (downloaded with `downloadResult`) and
 * the scale asked for.
 */
export async function enlargeWithEsrgan(
  call: FalCall,
  imageUrl: string,
  factor: number,
): Promise<{ bytes: Buffer; scale: number }> {
  const scale = Math.min(MAX_ESRGAN_FACTOR, Math.max(MIN_ESRGAN_FACTOR, factor));
  const output = await runQueued(call, ESRGAN_MODEL, (options) =>
    call.client.queue.submit(ESRGAN_MODEL, { ...options, input: esrganInput(imageUrl, scale) }),
  );
  return { bytes: await downloadResult(call, imageUrlOf(output)), scale };
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

/**
 * Downloads a generated image (never hotlinked: the caller stores it) from
 * fal's hosts only, without following redirects, reading at most
 * MAX_RESULT_BYTES whatever Content-Length says.
 */
export async function downloadResult(call: FalCall, url: string): Promise<Buffer> {
  if (!isFalResultUrl(url)) {
    throw new FalFailure("untrustedResult", false, {
      cause: new Error(`fal returned its result at a URL outside its hosts: ${describeUrl(url)}`),
    });
  }
  const response = await call.fetchFn(url, { signal: call.signal, redirect: "manual" });
  if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
    discard(response);
    throw new FalFailure("untrustedResult", false, {
      cause: new Error(
        `Downloading the result answered a redirect (HTTP ${response.status}) to ${describeUrl(response.headers.get("location") ?? "")}`,
      ),
    });
  }
  if (!response.ok) {
    discard(response);
    throw new FalFailure(response.status >= 500 ? "unavailable" : "noImage", true, {
      cause: new Error(`Downloading the result answered HTTP ${response.status}`),
    });
  }
  const declared = Number(response.headers.get("content-length"));
  if (declared > MAX_RESULT_BYTES) {
    discard(response);
    throw new FalFailure("tooLarge", false, {
      cause: new Error(`The result declared ${declared} bytes`),
    });
  }
  return readCapped(
    response.body,
    MAX_RESULT_BYTES,
    () =>
      new FalFailure("tooLarge", false, {
        cause: new Error(`The result passed ${MAX_RESULT_BYTES} bytes`),
      }),
  );
}

/**
 * Sorts anything thrown by a call to fal: a FalFailure as it is; fal's HTTP
 * answers by status (a content-policy refusal is "unsafe"); a network failure
 * "unreachable"; anything else "unavailable".
 */
export function falFailureOf(error: unknown): FalFailure {
  if (error instanceof FalFailure) return error;
  if (error instanceof ApiError) {
    const status = error.status;
    const details: unknown = (error.body as { detail?: unknown } | undefined)?.detail;
    const types = Array.isArray(details)
      ? details
          .map((detail) => (detail as { type?: unknown })?.type)
          .filter((type) => typeof type === "string")
      : [];
    if (types.includes("content_policy_violation"))
      return new FalFailure("unsafe", false, { cause: error });
    if (status === 401 || status === 403)
      return new FalFailure("credentials", false, { cause: error });
    if (status === 408 || status === 429) return new FalFailure("busy", true, { cause: error });
    if (status >= 500) return new FalFailure("unavailable", true, { cause: error });
    return new FalFailure("rejected", false, { cause: error });
  }
  if (error instanceof TypeError && /fetch failed|network/i.test(error.message)) {
    return new FalFailure("unreachable", true, { cause: error });
  }
  return new FalFailure("unavailable", true, { cause: error });
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
