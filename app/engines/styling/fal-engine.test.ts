import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { http, HttpResponse } from "msw";
import sharp from "sharp";
import { STYLE_IDS } from "~/lib/styles";
import { FAL_RESULT_HEIGHT, FAL_RESULT_WIDTH, falResultImage } from "#tests/mocks/fal";
import { pngBomb } from "#tests/setup/studio";
import {
  descriptionIn,
  DIGITAL_SOURCE_TYPES,
  digitalSourceTypeIn,
} from "~/engines/styling/ai-disclosure.server";
import { parseConfig } from "~/infra/config.server";
import {
  createFalEngine,
  FAL_MESSAGES,
  FAL_UPSCALER_MODEL,
  LANCZOS_UPSCALE,
  isFalResultUrl,
  MAX_RESULT_BYTES,
  MAX_RESULT_PIXELS,
  type FalEngineOptions,
} from "~/engines/styling/fal-engine.server";
import {
  DEFAULT_FAL_MODEL,
  DRAW_THE_FACE_TOO,
  FAL_STYLE_DEFAULTS,
  falStyleTable,
  KEEP_THE_PERSON,
} from "~/engines/styling/fal-models.server";
import { StyleEngineError } from "~/engines/styling/style-engine.server";
import { rejectionOf } from "#tests/setup/errors";
import { serveFalMock } from "#tests/setup/fal-mock-server";

const fixtures = path.resolve(
  path.dirname(url.fileURLToPath(import.meta.url)),
  "../../../tests/fixtures",
);
const portrait = fs.readFileSync(path.join(fixtures, "portrait.png"));

const { fal, server } = serveFalMock();

function falEngine(options: Partial<FalEngineOptions> = {}) {
  return createFalEngine({
    credentials: "key-id:key-secret",
    styles: falStyleTable({ FAL_MODEL: undefined, FAL_STYLES: undefined }),
    timeoutMs: 10_000,
    pollIntervalMs: 5,
    ...options,
  });
}

/** The StyleEngineError `promise` is refused with. */
const failure = (promise: Promise<unknown>) => rejectionOf(promise, StyleEngineError);

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

    // The image is ours now: re-encoded at its size (already a sold file's, 2048 px),
    // disclosed as trained algorithmic media, stripped of fal's metadata.
    expect(result.format).toBe("jpg");
    expect([result.width, result.height]).toEqual([FAL_RESULT_WIDTH, FAL_RESULT_HEIGHT]);
    expect(result.upscaledBy).toBeNull();
    const meta = await sharp(result.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", result.width, result.height]);
    const xmp = meta.xmp?.toString("utf8") ?? "";
    expect(digitalSourceTypeIn(xmp)).toBe(
      "http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia",
    );
    expect(digitalSourceTypeIn(xmp)).toBe(DIGITAL_SOURCE_TYPES.fal);
    expect(xmp).toContain("fal.ai fal-ai/flux-pro/kontext");
    expect(meta.exif).toBeUndefined();
    expect(result.data.includes("fal mock")).toBe(false);
  });

  it("sends each style its own instruction that keeps the person, as Kontext's prompting guide advises", async () => {
    const engine = falEngine();
    for (const style of STYLE_IDS) await engine.stylize(portrait, style);
    const sent = Object.fromEntries(
      fal.state.requests.map((request, i) => [STYLE_IDS[i], String(request.input.prompt)]),
    );
    expect(Object.values(sent)).toEqual(STYLE_IDS.map((style) => FAL_STYLE_DEFAULTS[style].prompt));
    expect(new Set(Object.values(sent)).size).toBe(4);
    for (const prompt of Object.values(sent)) {
      // The same person, face, position, scale and pose; never "transform" the photo.
      expect(prompt).toContain(KEEP_THE_PERSON);
      expect(prompt).toContain("the same face and facial features");
      expect(prompt).toContain("the same position, scale, pose and framing");
      expect(prompt.toLowerCase()).not.toContain("transform");
    }
    expect(sent.professional).toMatch(
      /^Change the style to a professional studio portrait photograph/,
    );
    expect(sent.professional).toContain("studio lighting");
    expect(sent.professional).toContain("backdrop");
    // Cartoon and anime draw the face itself in the style.
    expect(sent.cartoon).toMatch(/^Change the style to a modern animated-film cartoon/);
    expect(sent.anime).toMatch(/^Change the style to a Japanese anime illustration/);
    for (const style of ["cartoon", "anime"] as const) {
      expect(sent[style]).toContain(DRAW_THE_FACE_TOO);
      expect(sent[style]).toContain("the face included");
      expect(sent[style]).toContain("not left as a photograph");
    }
    // Fantasy adds a scene and light around the person, never over the face.
    expect(sent.fantasy).toMatch(/^Change the background to a painted fantasy scene/);
    expect(sent.fantasy).toContain("around the person");
    expect(sent.fantasy).toContain("never over the face");
    expect(fal.state.requests.every((request) => request.model === DEFAULT_FAL_MODEL)).toBe(true);
  });

  it("still lets FAL_STYLES override a style's instruction, as parsed from the environment", async () => {
    const config = parseConfig({
      ...process.env,
      FAL_STYLES: JSON.stringify({ cartoon: { prompt: "Change the style to a pencil sketch." } }),
    });
    const engine = falEngine({ styles: falStyleTable(config) });
    await engine.stylize(portrait, "cartoon");
    await engine.stylize(portrait, "anime");
    expect(fal.state.requests.map((request) => request.input.prompt)).toEqual([
      "Change the style to a pencil sketch.",
      FAL_STYLE_DEFAULTS.anime.prompt,
    ]);
    // The default model keeps its default input fields beside the overridden prompt.
    expect(fal.state.requests[0].input).toMatchObject({
      output_format: "jpeg",
      safety_tolerance: "2",
    });
  });

  it("sends the seed it is given to Kontext (fal's `seed` input), and none when not given", async () => {
    const engine = falEngine();
    await engine.stylize(portrait, "cartoon", { seed: 1234567 });
    await engine.stylize(portrait, "cartoon");
    expect(fal.state.requests[0].model).toBe(DEFAULT_FAL_MODEL);
    expect(fal.state.requests[0].input).toMatchObject({ seed: 1234567 });
    expect(fal.state.requests[1].input).not.toHaveProperty("seed");
  });

  it("enlarges a result smaller than a sold file with fal's upscaler, and records it", async () => {
    fal.setResultSize(768, 576); // the upload is 512 px: a sold file needs 2048
    const result = await falEngine().stylize(portrait, "anime");
    const [styling, upscaling] = fal.state.requests;
    expect(styling.model).toBe(DEFAULT_FAL_MODEL);
    expect(upscaling.model).toBe(FAL_UPSCALER_MODEL);
    // The upscaler gets fal's own result URL (no second upload) and a factor that reaches 2048 px.
    expect(upscaling.input).toEqual({
      image_url: `https://v3.fal.media/files/result/${styling.requestId}.jpg`,
      scale: 3,
      model: "RealESRGAN_x4plus",
      output_format: "png",
    });
    expect(fal.state.uploads).toHaveLength(1);
    expect(result.upscaledBy).toBe(FAL_UPSCALER_MODEL);
    expect(result.native).toEqual({ width: 768, height: 576 });
    expect([result.width, result.height]).toEqual([2048, 1536]); // a sold file's long edge
    const meta = await sharp(result.data).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 1536]);
    const xmp = meta.xmp?.toString("utf8") ?? "";
    expect(digitalSourceTypeIn(xmp)).toBe(DIGITAL_SOURCE_TYPES.fal);
    expect(xmp).toContain("enlarged with fal-ai/esrgan");
    expect(descriptionIn(xmp)).toBe("upscaled with ESRGAN ×2.67");
    expect(meta.exif?.includes("upscaled with ESRGAN x2.67")).toBe(true);
    expect(meta.exif?.includes("fal mock")).toBe(false);
  });

  it("enlarges to the upload's long edge when the upload is larger than 2048 px", async () => {
    const upload = await sharp(portrait).resize(2400, 2400).jpeg().toBuffer();
    fal.setResultSize(800, 600);
    const result = await falEngine().stylize(upload, "cartoon");
    expect(fal.state.requests[1].input).toMatchObject({ scale: 3 });
    expect([result.width, result.height]).toEqual([2400, 1800]);
    expect(result.upscaledBy).toBe(FAL_UPSCALER_MODEL);
  });

  it("enlarges with Lanczos when fal's upscaler fails or is off, and records that", async () => {
    fal.setResultSize(256, 192);
    fal.failUpscaler();
    const fallback = await falEngine().stylize(portrait, "cartoon");
    expect(fallback.upscaledBy).toBe(LANCZOS_UPSCALE);
    expect([fallback.width, fallback.height]).toEqual([2048, 1536]);
    const xmp = (await sharp(fallback.data).metadata()).xmp?.toString("utf8") ?? "";
    expect(descriptionIn(xmp)).toBe("upscaled with Lanczos ×8");

    fal.reset();
    fal.setResultSize(256, 192);
    const offline = await falEngine({ upscaler: null }).stylize(portrait, "cartoon");
    expect(fal.state.requests.map((request) => request.model)).toEqual([DEFAULT_FAL_MODEL]);
    expect(offline.upscaledBy).toBe(LANCZOS_UPSCALE);
    expect([offline.width, offline.height]).toEqual([2048, 1536]);
  });

  it("brings a result larger than the sale size down to it without recording an enlargement", async () => {
    fal.setResultSize(3000, 2000);
    const result = await falEngine().stylize(portrait, "professional");
    expect([result.width, result.height]).toEqual([2048, 1365]);
    expect(result.upscaledBy).toBeNull();
    expect(fal.state.requests).toHaveLength(1);
    const xmp = (await sharp(result.data).metadata()).xmp?.toString("utf8") ?? "";
    expect(descriptionIn(xmp)).toBeUndefined();
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
    // fal keeps no copy of the request's input and output (its 30-day request history).
    expect(fal.state.requests.map((request) => request.storeIo)).toEqual(
      fal.state.requests.map(() => "0"),
    );
    expect(fal.state.requests.length).toBeGreaterThan(0);

    // Never shorter than a minute, even with a shorter time limit.
    fal.reset();
    await falEngine({ timeoutMs: 5_000 }).stylize(portrait, "cartoon");
    expect(fal.state.uploads[0].lifecycle).toEqual({ expiration_duration_seconds: 60 });
  });
});
