import type { RequestMiddleware } from "@fal-ai/client";
import type { EndpointTypeMap } from "@fal-ai/client/endpoints";

/**
 * The inputs the app sends to fal's endpoints, typed with `@fal-ai/client`'s
 * own endpoint map, so the typecheck holds them to fal's published shapes
 * (no cast on the way in): FLUX.1 Kontext [pro] for the styles, Real-ESRGAN
 * for enlarging.
 */

export const KONTEXT_MODEL = "fal-ai/flux-pro/kontext";
export const ESRGAN_MODEL = "fal-ai/esrgan";

export type KontextInput = EndpointTypeMap[typeof KONTEXT_MODEL]["input"];
/** Kontext's options besides the instruction and the photo. */
export type KontextOptions = Omit<KontextInput, "prompt" | "image_url">;
export type EsrganInput = EndpointTypeMap[typeof ESRGAN_MODEL]["input"];

/** Kontext's input; `seed` (fal: "the same seed and the same prompt ... will output the same image") when one is given. */
export function kontextInput(
  options: KontextOptions,
  prompt: string,
  imageUrl: string,
  seed?: number,
): KontextInput {
  return { ...options, prompt, image_url: imageUrl, ...(seed === undefined ? {} : { seed }) };
}

/** Real-ESRGAN's general x4 model, asked for `scale` (2 to 4), answering a PNG. */
export function esrganInput(imageUrl: string, scale: number): EsrganInput {
  return { image_url: imageUrl, scale, model: "RealESRGAN_x4plus", output_format: "png" };
}

/**
 * fal keeps every request's JSON input and output for 30 days unless the
 * request carries `X-Fal-Store-IO: 0` (fal's docs, "Preventing payload
 * storage"); a selfie's URL and its styled result need not be kept there. Sent
 * on the queue submission (the request that carries the input); files on fal's
 * CDN keep their own expiry (storageSettings).
 */
export const doNotStoreIo: RequestMiddleware = async (request) =>
  request.method.toUpperCase() === "POST" && new URL(request.url).hostname === "queue.fal.run"
    ? { ...request, headers: { ...request.headers, "X-Fal-Store-IO": "0" } }
    : request;
