import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { setupServer } from "msw/node";
import sharp from "sharp";
import { STYLE_IDS } from "~/lib/styles";
import { createFalMock, FAL_RESULT_HEIGHT, FAL_RESULT_WIDTH } from "#tests/mocks/fal";
import { DIGITAL_SOURCE_TYPE } from "./ai-disclosure.server";
import { createFalEngine, FAL_MESSAGES, type FalEngineOptions } from "./fal-engine.server";
import { DEFAULT_FAL_MODEL, FAL_STYLE_DEFAULTS, falStyleTable } from "./fal-models.server";
import { StyleEngineError } from "./style-engine.server";

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
