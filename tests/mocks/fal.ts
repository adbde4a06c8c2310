import crypto from "node:crypto";
import { http, HttpResponse } from "msw";
import sharp from "sharp";

/**
 * msw handlers answering fal.ai's own endpoints, as @fal-ai/client 1.10 calls them:
 *
 * - storage: POST https://rest.fal.ai/storage/upload/initiate?storage_type=fal-cdn-v3
 *   answers { upload_url, file_url }; the client then PUTs the bytes to upload_url;
 * - queue submit: POST https://queue.fal.run/<owner>/<alias>[/<path>] with the model input;
 * - status: GET https://queue.fal.run/<owner>/<alias>/requests/<id>/status
 *   (the client drops the endpoint's sub-path, e.g. "kontext", for queue calls);
 * - result: GET https://queue.fal.run/<owner>/<alias>/requests/<id>;
 * - cancel: PUT https://queue.fal.run/<owner>/<alias>/requests/<id>/cancel;
 * - the generated image: GET https://v3.fal.media/files/... (the URL in the result).
 *
 * The upscaler (fal-ai/esrgan) goes through the same queue; its result is
 * `{ image: { url, width, height } }`, `scale` times the generated size.
 *
 * The client sends an upload's `lifecycle` as the X-Fal-Object-Lifecycle header
 * of the initiate call, and a submit's `storageSettings` as the
 * X-Fal-Object-Lifecycle-Preference header: both are recorded, parsed.
 *
 * `scenario` picks how the request goes; `state` records what was called.
 */
export type FalScenario =
  /** IN_QUEUE, IN_PROGRESS, then COMPLETED with an image. */
  | "success"
  /** Completes, but the result flags the image as NSFW. */
  | "nsfw"
  /** Completes, and the result answers 422 with a model error (fal's `detail` array). */
  | "model-error"
  /** Completes with an infrastructure error in the status (fal's `error` / `error_type`). */
  | "runner-error"
  /** Stays IN_PROGRESS for ever. */
  | "never-completes"
  /** The queue submit answers 500. */
  | "server-error";

export interface FalMockRequest {
  requestId: string;
  /** The endpoint id as submitted, e.g. "fal-ai/flux-pro/kontext". */
  model: string;
  input: Record<string, unknown>;
  authorization: string | null;
  /** The X-Fal-Object-Lifecycle-Preference header, parsed (null when absent). */
  lifecycle: unknown;
  /** The X-Fal-Store-IO header ("0": fal keeps no copy of the request's input and output). */
  storeIo: string | null;
  /** The statuses answered, in order. */
  statuses: string[];
  /** The pixel size of the image this request answers. */
  output: { width: number; height: number };
}

/** A generated picture's size by default: as large as a sold file must be from a small upload (2048 px). */
export const FAL_RESULT_WIDTH = 2048;
export const FAL_RESULT_HEIGHT = 1536;

/** A stand-in for a generated picture: 2048 px by default, with EXIF that must not survive. */
export async function falResultImage(
  width = FAL_RESULT_WIDTH,
  height = FAL_RESULT_HEIGHT,
): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = ((x + y) >> 3) & 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .withExif({ IFD0: { Artist: "fal mock", ImageDescription: "model output" } })
    .toBuffer();
}

export function createFalMock(initial: FalScenario = "success") {
  const state = {
    scenario: initial,
    uploads: [] as Array<{
      contentType: string;
      fileName: string;
      bytes: number;
      authorization: string | null;
      /** The X-Fal-Object-Lifecycle header, parsed (null when absent). */
      lifecycle: unknown;
    }>,
    requests: [] as FalMockRequest[],
    cancels: [] as string[],
    downloads: [] as string[],
    /** The image URL the result answers; by default one on fal's CDN served by the handler below. */
    resultUrl: undefined as ((requestId: string) => string) | undefined,
    /** The size of the styled images answered (the upscaler answers `scale` times this). */
    resultSize: { width: FAL_RESULT_WIDTH, height: FAL_RESULT_HEIGHT },
    /** When set, the upscaler's submit answers 500. */
    upscalerFails: false,
  };
  const resultImages = new Map<string, Promise<Buffer>>();
  const imageOfSize = (size: { width: number; height: number }) => {
    const key = `${size.width}x${size.height}`;
    let image = resultImages.get(key);
    if (!image) {
      image = falResultImage(size.width, size.height);
      resultImages.set(key, image);
    }
    return image;
  };
  const isUpscaler = (model: string) => model.startsWith("fal-ai/esrgan");
  const uploaded = new Map<string, Buffer>();

  const find = (id: string | readonly string[] | undefined) =>
    state.requests.find((request) => request.requestId === id);
  const queueUrls = (owner: string, alias: string, requestId: string) => {
    const base = `https://queue.fal.run/${owner}/${alias}/requests/${requestId}`;
    return {
      request_id: requestId,
      response_url: base,
      status_url: `${base}/status`,
      cancel_url: `${base}/cancel`,
    };
  };

  const handlers = [
    http.post("https://rest.fal.ai/storage/upload/initiate", async ({ request }) => {
      const body = (await request.json()) as { content_type: string; file_name: string };
      const id = crypto.randomUUID();
      state.uploads.push({
        contentType: body.content_type,
        fileName: body.file_name,
        bytes: 0,
        authorization: request.headers.get("authorization"),
        lifecycle: parseHeader(request.headers.get("x-fal-object-lifecycle")),
      });
      return HttpResponse.json({
        upload_url: `https://v3.fal.media/files/upload/${id}?signature=mock`,
        file_url: `https://v3.fal.media/files/${id}/${body.file_name}`,
      });
    }),

    http.put("https://v3.fal.media/files/upload/:id", async ({ request, params }) => {
      const bytes = Buffer.from(await request.arrayBuffer());
      uploaded.set(String(params.id), bytes);
      const last = state.uploads[state.uploads.length - 1];
      if (last) last.bytes = bytes.length;
      return new HttpResponse(null, { status: 200 });
    }),

    http.get("https://v3.fal.media/files/result/:name", async ({ request, params }) => {
      state.downloads.push(request.url);
      const requestId = String(params.name).replace(/\.[a-z]+$/, "");
      const bytes = await imageOfSize(find(requestId)?.output ?? state.resultSize);
      return new HttpResponse(new Uint8Array(bytes), {
        headers: { "Content-Type": "image/jpeg", "Content-Length": String(bytes.length) },
      });
    }),

    http.get("https://v3.fal.media/files/:id/:name", ({ params }) => {
      const bytes = uploaded.get(String(params.id));
      if (!bytes) return new HttpResponse(null, { status: 404 });
      return new HttpResponse(new Uint8Array(bytes), { headers: { "Content-Type": "image/jpeg" } });
    }),

    http.get("https://queue.fal.run/:owner/:alias/requests/:requestId/status", ({ params }) => {
      const request = find(params.requestId);
      if (!request) return HttpResponse.json({ detail: "Request not found" }, { status: 404 });
      const urls = queueUrls(String(params.owner), String(params.alias), request.requestId);
      const poll = request.statuses.length;
      let body: Record<string, unknown>;
      if (poll === 0) body = { ...urls, status: "IN_QUEUE", queue_position: 1 };
      else if (poll === 1 || state.scenario === "never-completes")
        body = { ...urls, status: "IN_PROGRESS", logs: [] };
      else if (state.scenario === "runner-error") {
        body = {
          ...urls,
          status: "COMPLETED",
          logs: [],
          error: "Runner disconnected",
          error_type: "runner_disconnected",
        };
      } else body = { ...urls, status: "COMPLETED", logs: [], metrics: { inference_time: 4.2 } };
      request.statuses.push(String(body.status));
      return HttpResponse.json(body, { status: body.status === "COMPLETED" ? 200 : 202 });
    }),

    http.get("https://queue.fal.run/:owner/:alias/requests/:requestId", ({ params }) => {
      const request = find(params.requestId);
      if (!request) return HttpResponse.json({ detail: "Request not found" }, { status: 404 });
      const headers = { "x-fal-request-id": request.requestId };
      if (request.statuses[request.statuses.length - 1] !== "COMPLETED") {
        return HttpResponse.json(
          { detail: "Request is still in progress" },
          { status: 400, headers },
        );
      }
      if (state.scenario === "model-error") {
        return HttpResponse.json(
          {
            detail: [
              {
                loc: ["body", "image_url"],
                msg: "Failed to load the image. Please ensure the image file is not corrupted.",
                type: "image_load_error",
              },
            ],
          },
          { status: 422, headers: { ...headers, "X-Fal-Retryable": "false" } },
        );
      }
      if (isUpscaler(request.model)) {
        return HttpResponse.json(
          {
            image: {
              url: `https://v3.fal.media/files/result/${request.requestId}.png`,
              ...request.output,
              content_type: "image/png",
            },
          },
          { headers },
        );
      }
      return HttpResponse.json(
        {
          images: [
            {
              url:
                state.resultUrl?.(request.requestId) ??
                `https://v3.fal.media/files/result/${request.requestId}.jpg`,
              ...request.output,
              content_type: "image/jpeg",
            },
          ],
          has_nsfw_concepts: [state.scenario === "nsfw"],
          prompt: request.input.prompt,
          seed: 42,
          timings: { inference: 4.2 },
        },
        { headers },
      );
    }),

    http.put("https://queue.fal.run/:owner/:alias/requests/:requestId/cancel", ({ params }) => {
      state.cancels.push(String(params.requestId));
      return HttpResponse.json({ status: "CANCELLATION_REQUESTED" }, { status: 202 });
    }),

    // Submit last: its wildcard must not shadow the request routes above.
    http.post("https://queue.fal.run/*", async ({ request }) => {
      if (state.scenario === "server-error") {
        return HttpResponse.json({ detail: "Internal Server Error" }, { status: 500 });
      }
      const path = new URL(request.url).pathname.replace(/^\//, "");
      if (state.upscalerFails && isUpscaler(path)) {
        return HttpResponse.json({ detail: "Internal Server Error" }, { status: 500 });
      }
      const [owner, alias] = path.split("/");
      const requestId = crypto.randomUUID();
      const input = (await request.json()) as Record<string, unknown>;
      const scale = isUpscaler(path) ? Number(input.scale ?? 2) : 1;
      state.requests.push({
        requestId,
        model: path,
        input,
        authorization: request.headers.get("authorization"),
        lifecycle: parseHeader(request.headers.get("x-fal-object-lifecycle-preference")),
        storeIo: request.headers.get("x-fal-store-io"),
        statuses: [],
        output: { width: state.resultSize.width * scale, height: state.resultSize.height * scale },
      });
      return HttpResponse.json({
        ...queueUrls(owner, alias, requestId),
        status: "IN_QUEUE",
        queue_position: 0,
      });
    }),
  ];

  return {
    handlers,
    state,
    /** Changes how the next requests go. */
    setScenario(scenario: FalScenario) {
      state.scenario = scenario;
    },
    /** Makes the next styled images this size (the upscaler's `scale` times it). */
    setResultSize(width: number, height: number) {
      state.resultSize = { width, height };
    },
    /** Makes the upscaler's submit fail (500). */
    failUpscaler() {
      state.upscalerFails = true;
    },
    /** Makes the next results name their image at this URL. */
    setResultUrl(url: (requestId: string) => string) {
      state.resultUrl = url;
    },
    /** Forgets everything recorded and goes back to `initial`. */
    reset() {
      state.scenario = initial;
      state.uploads.length = 0;
      state.requests.length = 0;
      state.cancels.length = 0;
      state.downloads.length = 0;
      state.resultUrl = undefined;
      state.resultSize = { width: FAL_RESULT_WIDTH, height: FAL_RESULT_HEIGHT };
      state.upscalerFails = false;
      uploaded.clear();
    },
  };
}

function parseHeader(value: string | null): unknown {
  if (value === null) return null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
