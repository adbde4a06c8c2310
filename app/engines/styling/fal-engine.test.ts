import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import sharp from "sharp";
import { STYLE_IDS } from "~/lib/styles";
import {
  createFalMock,
  FAL_RESULT_HEIGHT,
  FAL_RESULT_WIDTH,
  falResultImage,
} from "#tests/mocks/fal";
import { pngBomb } from "#tests/setup/studio";
import { DIGITAL_SOURCE_TYPE } from "~/engines/styling/ai-disclosure.server";
import {
  createFalEngine,
  FAL_MESSAGES,
  isFalResultUrl,
  MAX_RESULT_BYTES,
  MAX_RESULT_PIXELS,
  type FalEngineOptions,
} from "~/engines/styling/fal-engine.server";
import { DEFAULT_FAL_MODEL, FAL_STYLE_DEFAULTS, falStyleTable } from "~/engines/styling/fal-models.server";
import { StyleEngineError } from "~/engines/styling/style-engine.server";

const fixtures = path.resolve(
  path.dirname(url.fileURLToPath(import.meta.url)),
  "../../../tests/fixtures",
);
const portrait = fs.readFileSync(path.join(fixtures, "portrait.png"));

const fal = createFalMock();
const server = setupServer(...fal.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  fal.reset();
  server.resetHandlers();
});
afterAll(() => server.close());

function falEngine(options: Partial<FalEngineOptions> = {}) {
  return createFalEngine({
    credentials: "key-id:key-secret",
    styles: falStyleTable({ FAL_MODEL: undefined, FAL_STYLES: undefined }),
    timeoutMs: 10_000,
    pollIntervalMs: 5,
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<StyleEngineError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StyleEngineError);
  return error as StyleEngineError;
}

describe("fal.ai style engine", () => {
  it("uploads, submits, polls to COMPLETED, fetches the result and downloads the image", async () => {
    const engine = falEngine();
    expect(engine.id).toBe("fal");
    const result = await engine.stylize(portrait, "cartoon");

    // Storage: one JPEG upload with our key.
    expect(fal.state.uploads).toHaveLength(1);
    expect(fal.state.uploads[0]).toMatchObject({
      contentType: "image/jpeg",
      authorization: "Key key-id:key-secret",
    });
    expect(fal.state.uploads[0].bytes).toBeGreaterThan(1000);

    // Queue: the style's model and instruction, with the uploaded photo.
    expect(fal.state.requests).toHaveLength(1);
    const [request] = fal.state.requests;
    expect(request.model).toBe("fal-ai/flux-pro/kontext");
    expect(request.authorization).toBe("Key key-id:key-secret");
    expect(request.input.prompt).toBe(FAL_STYLE_DEFAULTS.cartoon.prompt);
    expect(request.input.image_url).toMatch(
      /^https:\/\/v3\.fal\.media\/files\/[^/]+\/[^/]+\.jpeg$/,
    );
    expect(request.input).toMatchObject({ output_format: "jpeg", safety_tolerance: "2" });
    expect(request.statuses).toEqual(["IN_QUEUE", "IN_PROGRESS", "COMPLETED"]);
    expect(fal.state.downloads).toEqual([
      `https://v3.fal.media/files/result/${request.requestId}.jpg`,
    ]);
    expect(fal.state.cancels).toEqual([]);

    // The image is ours now: re-encoded, capped at 1024 px, disclosed, stripped of fal's metadata.
    expect(result.format).toBe("jpg");
    expect([result.width, result.height]).toEqual([
      1024,
      Math.round((1024 * FAL_RESULT_HEIGHT) / FAL_RESULT_WIDTH),
    ]);
    const meta = await sharp(result.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", result.width, result.height]);
    const xmp = meta.xmp?.toString("utf8") ?? "";
    expect(xmp).toContain(`Iptc4xmpExt:DigitalSourceType="${DIGITAL_SOURCE_TYPE}"`);
    expect(xmp).toContain("fal.ai fal-ai/flux-pro/kontext");
    expect(meta.exif).toBeUndefined();
    expect(result.data.includes("fal mock")).toBe(false);
  });

  it("sends each style its own identity-preserving instruction", async () => {
    const engine = falEngine();
    for (const style of STYLE_IDS) await engine.stylize(portrait, style);
    const prompts = fal.state.requests.map((request) => request.input.prompt);
    expect(prompts).toEqual(STYLE_IDS.map((style) => FAL_STYLE_DEFAULTS[style].prompt));
    expect(new Set(prompts).size).toBe(4);
    for (const prompt of prompts)
      expect(prompt).toContain("Keep the same person clearly recognisable");
    expect(fal.state.requests.every((request) => request.model === DEFAULT_FAL_MODEL)).toBe(true);
  });

  it("uses the configured model and per-style overrides", async () => {
    const engine = falEngine({
      styles: falStyleTable({
        FAL_MODEL: "fal-ai/flux-kontext/dev",
        FAL_STYLES: { anime: { prompt: "Make it anime.", input: { guidance_scale: 4 } } },
      }),
    });
    await engine.stylize(portrait, "anime");
    const [request] = fal.state.requests;
    expect(request.model).toBe("fal-ai/flux-kontext/dev");
    expect(request.input).toEqual({
      prompt: "Make it anime.",
      guidance_scale: 4,
      image_url: expect.any(String),
    });
  });

  it("turns a model error into a failure that is not retried", async () => {
    fal.setScenario("model-error");
    const error = await failure(falEngine().stylize(portrait, "fantasy"));
    expect(error.message).toBe(FAL_MESSAGES.rejected);
    expect(error.retryable).toBe(false);
    expect(fal.state.downloads).toEqual([]);
  });

  it("turns an NSFW flag into a failure that is not retried, without downloading the image", async () => {
    fal.setScenario("nsfw");
    const error = await failure(falEngine().stylize(portrait, "professional"));
    expect(error.message).toBe("The AI service flagged this image as unsafe and did not style it.");
    expect(error.retryable).toBe(false);
    expect(fal.state.downloads).toEqual([]);
  });

  it("treats an infrastructure error in the status as retryable", async () => {
    fal.setScenario("runner-error");
    const error = await failure(falEngine().stylize(portrait, "anime"));
    expect(error.message).toBe(FAL_MESSAGES.unavailable);
    expect(error.retryable).toBe(true);
  });

  it("gives up after the timeout, cancels the request and says to try again", async () => {
    fal.setScenario("never-completes");
    const error = await failure(falEngine({ timeoutMs: 250 }).stylize(portrait, "cartoon"));
    expect(error.message).toBe("The AI service took too long to respond. Please try again.");
    expect(error.retryable).toBe(true);
    const [request] = fal.state.requests;
    expect(request.statuses.length).toBeGreaterThan(2);
    expect(request.statuses.every((status) => status !== "COMPLETED")).toBe(true);
    expect(fal.state.cancels).toEqual([request.requestId]);
  });

  it("treats a 5xx from fal as retryable", async () => {
    fal.setScenario("server-error");
    const error = await failure(falEngine().stylize(portrait, "cartoon"));
    expect(error.message).toBe(FAL_MESSAGES.unavailable);
    expect(error.retryable).toBe(true);
  });

  it("stops and cancels the request when the caller aborts", async () => {
    fal.setScenario("never-completes");
    const controller = new AbortController();
    const pending = falEngine().stylize(portrait, "anime", { signal: controller.signal });
    await vi.waitFor(() => expect(fal.state.requests[0]?.statuses.length ?? 0).toBeGreaterThan(1));
    controller.abort();
    const error = await failure(pending);
    expect(error.message).toBe(FAL_MESSAGES.cancelled);
    expect(error.retryable).toBe(true);
    expect(fal.state.cancels).toEqual([fal.state.requests[0].requestId]);
  });

  it("refuses a buffer that is not an image before calling fal", async () => {
    const error = await failure(falEngine().stylize(Buffer.from("not an image"), "cartoon"));
    expect(error.retryable).toBe(false);
    expect(fal.state.uploads).toEqual([]);
    expect(fal.state.requests).toEqual([]);
  });
});

describe("fal.ai style engine: what fal answers cannot be turned against the server", () => {
  /** Requests that reached a host other than fal's. */
  function foreignHosts() {
    const hits: string[] = [];
    server.use(
      http.get(
        /^(https:\/\/(images\.example\.com|169\.254\.169\.254|v3\.fal\.media\.example\.com|storage\.googleapis\.com|v3\.fal\.media:8443)|http:\/\/v3\.fal\.media)\//,
        async ({ request }) => {
          hits.push(request.url);
          return new HttpResponse(new Uint8Array(await falResultImage()), {
            headers: { "Content-Type": "image/jpeg" },
          });
        },
      ),
    );
    return hits;
  }

  it("accepts result URLs on fal's hosts only", () => {
    for (const url of [
      "https://v3.fal.media/files/rabbit/out.png",
      "https://v3b.fal.media/files/b/panda/out.png",
      "https://fal.media/files/out.png",
      "https://cdn.fal.ai/files/out.png",
      "https://V3.FAL.MEDIA:443/files/out.png",
      "https://storage.googleapis.com/falserverless/example_outputs/out.png",
    ])
      expect(isFalResultUrl(url), url).toBe(true);
    for (const url of [
      "http://v3.fal.media/files/out.png",
      "https://v3.fal.media:8443/files/out.png",
      "https://user:secret@v3.fal.media/files/out.png",
      "https://evilfal.media/files/out.png",
      "https://v3.fal.media.example.com/files/out.png",
      "https://fal.media./files/out.png",
      "https://storage.googleapis.com/someone-else/out.png",
      "https://storage.googleapis.com/falserverless-evil/out.png",
      "https://storage.googleapis.com/falserverless/../someone-else/out.png",
      "https://storage.googleapis.com/falserverless/%2e%2e/someone-else/out.png",
      "https://169.254.169.254/latest/meta-data/",
      "https://127.0.0.1/out.png",
      "https://[::1]/out.png",
      "file:///etc/passwd",
      "data:image/png;base64,iVBORw0KGgo=",
      "not a url",
    ])
      expect(isFalResultUrl(url), url).toBe(false);
  });

  it("refuses a result on a foreign host without fetching it, and does not retry", async () => {
    const hits = foreignHosts();
    for (const url of [
      "https://images.example.com/out.jpg",
      "https://169.254.169.254/latest/meta-data/out.jpg",
      "https://v3.fal.media.example.com/files/out.jpg",
      "https://storage.googleapis.com/someone-else/out.jpg",
      "https://v3.fal.media:8443/files/out.jpg",
      "http://v3.fal.media/files/out.jpg",
    ]) {
      fal.setResultUrl(() => url);
      const error = await failure(falEngine().stylize(portrait, "cartoon"));
      expect(error.message, url).toBe(FAL_MESSAGES.untrustedResult);
      expect(error.retryable, url).toBe(false);
    }
    expect(hits).toEqual([]);
    expect(fal.state.requests).toHaveLength(6);
  });

  it("does not follow a redirect from the result URL, even to another fal host", async () => {
    const hits = foreignHosts();
    const elsewhere: string[] = [];
    server.use(
      http.get("https://v3b.fal.media/files/*", async ({ request }) => {
        elsewhere.push(request.url);
        return new HttpResponse(new Uint8Array(await falResultImage()), {
          headers: { "Content-Type": "image/jpeg" },
        });
      }),
    );
    for (const [status, location] of [
      [302, "https://images.example.com/out.jpg"],
      [307, "https://v3b.fal.media/files/moved.jpg"],
    ] as const) {
      server.use(
        http.get(
          "https://v3.fal.media/files/result/:name",
          () => new HttpResponse(null, { status, headers: { Location: location } }),
        ),
      );
      const error = await failure(falEngine().stylize(portrait, "anime"));
      expect(error.message, location).toBe(FAL_MESSAGES.untrustedResult);
      expect(error.retryable, location).toBe(false);
    }
    expect(hits).toEqual([]);
    expect(elsewhere).toEqual([]);
  });

  it.each([
    ["without Content-Length", {}],
    ["with a Content-Length that lies", { "Content-Length": "1000" }],
  ])(
    "stops reading a result past the byte cap %s, and does not retry",
    async (_, headers: Record<string, string>) => {
      const chunk = 1024 * 1024;
      const chunks = Math.ceil((MAX_RESULT_BYTES * 1.6) / chunk);
      let pulled = 0;
      server.use(
        http.get("https://v3.fal.media/files/result/:name", () => {
          const body = new ReadableStream<Uint8Array>({
            pull(controller) {
              if (pulled === chunks) return controller.close();
              pulled += 1;
              controller.enqueue(new Uint8Array(chunk).fill(pulled));
            },
          });
          return new HttpResponse(body, { headers: { "Content-Type": "image/jpeg", ...headers } });
        }),
      );
      const error = await failure(falEngine().stylize(portrait, "fantasy"));
      expect(error.message).toBe(FAL_MESSAGES.tooLarge);
      expect(error.retryable).toBe(false);
      // Reading stopped just past the cap (the stream may have queued a chunk or two ahead).
      expect(pulled).toBeGreaterThan(MAX_RESULT_BYTES / chunk);
      expect(pulled).toBeLessThan(MAX_RESULT_BYTES / chunk + 4);
    },
  );

  it("refuses an image over the pixel limit without decoding it, and does not retry", async () => {
    // 8000 x 6000 = 48 MP in a few kilobytes: a decompression bomb sharp would otherwise decode.
    const bomb = pngBomb(8000, 6000);
    expect(8000 * 6000).toBeGreaterThan(MAX_RESULT_PIXELS);
    expect(bomb.length).toBeLessThan(MAX_RESULT_BYTES);
    server.use(
      http.get(
        "https://v3.fal.media/files/result/:name",
        () => new HttpResponse(new Uint8Array(bomb), { headers: { "Content-Type": "image/png" } }),
      ),
    );
    const error = await failure(falEngine().stylize(portrait, "professional"));
    expect(error.message).toBe(FAL_MESSAGES.tooLarge);
    expect(error.retryable).toBe(false);
  });

  it("has the uploaded photo and the generated image expire with the request's time limit", async () => {
    await falEngine({ timeoutMs: 120_000 }).stylize(portrait, "cartoon");
    expect(fal.state.uploads).toHaveLength(1);
    expect(fal.state.uploads[0].lifecycle).toEqual({ expiration_duration_seconds: 120 });
    expect(fal.state.requests[0].lifecycle).toEqual({ expiration_duration_seconds: 120 });

    // Never shorter than a minute, even with a shorter time limit.
    fal.reset();
    await falEngine({ timeoutMs: 5_000 }).stylize(portrait, "cartoon");
    expect(fal.state.uploads[0].lifecycle).toEqual({ expiration_duration_seconds: 60 });
  });
});
