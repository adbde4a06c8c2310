import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import * as media from "~/routes/_resources+/media.$";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import {
  DIGITAL_SOURCE_TYPES,
  digitalSourceTypeIn,
  disclosureXmp,
} from "~/engines/styling/ai-disclosure.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { fixture, studioWorker, testStyleEngine } from "#tests/setup/studio";
import { apiRoute } from "#tests/setup/api-routes";
import { stylizeRequest, uploadPortrait } from "#tests/setup/studio-api";
import { rowWhere } from "#tests/setup/rows-where";

const optimize = apiRoute("/api/images/optimize");

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

/** A completed stylized image of the portrait, made by the test engine (256 x 256). */
async function completedStylized(
  token: string,
  options: { xmp?: string; engine?: "local" | "fal" } = {},
) {
  const image = await (await uploadPortrait(token)).json();
  const { id } = await (await stylizeRequest(image.id, { style: "cartoon" }, { token })).json();
  await studioWorker(testStyleEngine({ xmp: options.xmp, id: options.engine })).drain();
  return id as string;
}

const optimizeCall = (
  json: unknown,
  auth: { token?: string; cookie?: string; origin?: "same" | "cross" },
) => callRoute(optimize.action, makeRequest("/api/images/optimize", { ...auth, json }));

async function download(url: string): Promise<Buffer> {
  const key = url.split("?")[0].replace("/media/", "");
  const response = await callRoute(media.loader, makeRequest(url), { "*": key });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe("POST /api/images/optimize", () => {
  it("makes a delivery version with its own URL and answers the StylizedImage", async () => {
    const { token } = await createTestUser();
    const imageId = await completedStylized(token);
    const response = await optimizeCall(
      {
        imageId,
        quality: 80,
        format: "jpg",
        resolution: "800x800",
        watermark: false,
        socialOptimized: true,
      },
      { token },
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      id: imageId,
      status: "completed",
      optimizedUrl: expect.stringMatching(
        /^\/media\/optimized\/[A-Za-z0-9_-]+\.jpg\?exp=\d+&dl=selfie-studio-cartoon-256x256\.jpg&sig=/,
      ),
      format: "jpg",
      quality: 80,
      resolution: "800x800",
      watermark: false,
      socialOptimized: true,
      width: 256, // never enlarged: the styled image is 256 px
      height: 256,
      bytes: expect.any(Number),
    });
    expect(body.optimizedUrl).not.toBe(body.styledUrl);
    const file = await download(body.optimizedUrl);
    expect(file.length).toBe(body.bytes);
    const metadata = await sharp(file).metadata();
    expect(metadata.format).toBe("jpeg");
    expect(metadata.isProgressive).toBe(true); // social: progressive
    expect(metadata.icc).toBeDefined(); // social: sRGB profile embedded
  });

  it("answers optimizedUrl as a download under a readable name, only with its signature", async () => {
    const { token } = await createTestUser();
    const imageId = await completedStylized(token);
    const body = await (
      await optimizeCall(
        {
          imageId,
          quality: 85,
          format: "webp",
          resolution: "original",
          watermark: false,
          socialOptimized: false,
        },
        { token },
      )
    ).json();
    const url = body.optimizedUrl as string;
    const key = url.split("?")[0].replace("/media/", "");
    const get = (path: string) => callRoute(media.loader, makeRequest(path), { "*": key });

    const saved = await get(url);
    expect(saved.status).toBe(200);
    expect(saved.headers.get("Content-Disposition")).toBe(
      'attachment; filename="selfie-studio-cartoon-256x256.webp"',
    );
    expect(saved.headers.get("Content-Type")).toBe("image/webp");
    expect((await sharp(Buffer.from(await saved.arrayBuffer())).metadata()).format).toBe("webp");

    // The name is signed with the link: another name, or none, is not this link.
    for (const changed of [
      url.replace("dl=selfie-studio-cartoon-256x256.webp", "dl=other.webp"),
      url.replace(/&dl=[^&]+/, ""),
      url.replace("dl=selfie-studio-cartoon-256x256.webp", "dl=a%22%0d%0aSet-Cookie%3A%20x.webp"),
    ]) {
      const refused = await get(changed);
      expect(refused.status, changed).toBe(403);
      expect(refused.headers.get("Content-Disposition"), changed).toBeNull();
    }
    // Shown in a page (a smaller copy for the <picture>), the same link stays inline.
    const shown = await get(`${url}&w=320&fmt=webp`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("Content-Disposition")).toBeNull();
    // The styled image itself is shown, not saved.
    const styled = body.styledUrl as string;
    const inline = await callRoute(media.loader, makeRequest(styled), {
      "*": styled.split("?")[0].replace("/media/", ""),
    });
    expect(inline.status).toBe(200);
    expect(inline.headers.get("Content-Disposition")).toBeNull();
  });

  it("resizes to fit inside the chosen box and writes webp and png too", async () => {
    const { token } = await createTestUser();
    const imageId = await completedStylized(token);
    const big = await sharp(fixture("portrait.png")).resize(1600, 1200).jpeg().toBuffer();
    // Replace the styled file by a larger one so the box matters.
    const row = await rowWhere("stylized_images", "*", "id", imageId);
    await getFileStore().write(row.file_key!, big);

    const webp = await (
      await optimizeCall(
        { imageId, quality: 75, format: "webp", resolution: "1200x1200" },
        { token },
      )
    ).json();
    expect([webp.width, webp.height]).toEqual([1200, 900]);
    expect((await sharp(await download(webp.optimizedUrl)).metadata()).format).toBe("webp");
    expect(webp.watermark).toBe(false); // a switch left out is off

    const png = await (
      await optimizeCall({ imageId, quality: 95, format: "png", resolution: "original" }, { token })
    ).json();
    expect([png.width, png.height]).toEqual([1600, 1200]);
    expect((await sharp(await download(png.optimizedUrl)).metadata()).format).toBe("png");
  });

  it("draws a visible watermark, strongest in the lower right corner", async () => {
    const { token } = await createTestUser();
    const imageId = await completedStylized(token);
    const settings = {
      imageId,
      quality: 100,
      format: "png",
      resolution: "original",
      socialOptimized: false,
    };
    const plain = await (await optimizeCall({ ...settings, watermark: false }, { token })).json();
    const plainPixels = await sharp(await download(plain.optimizedUrl))
      .removeAlpha()
      .raw()
      .toBuffer();
    const marked = await (await optimizeCall({ ...settings, watermark: true }, { token })).json();
    expect(marked.watermark).toBe(true);
    const markedPixels = await sharp(await download(marked.optimizedUrl))
      .removeAlpha()
      .raw()
      .toBuffer();
    expect(markedPixels.length).toBe(plainPixels.length);
    let changed = 0;
    let cornerChanged = 0;
    for (let i = 0; i < plainPixels.length; i += 3) {
      const pixel = i / 3;
      const x = pixel % 256;
      const y = Math.floor(pixel / 256);
      const delta =
        Math.abs(plainPixels[i] - markedPixels[i]) +
        Math.abs(plainPixels[i + 1] - markedPixels[i + 1]);
      if (delta > 30) {
        changed += 1;
        if (x > 128 && y > 230) cornerChanged += 1;
      }
    }
    expect(changed).toBeGreaterThan(500); // the diagonal rows and the corner mark
    expect(changed).toBeLessThan(256 * 256 * 0.3); // the picture stays visible
    expect(cornerChanged).toBeGreaterThan(100);
  });

  it("keeps the AI disclosure: the styled image's tool, with the source type of the engine that made it", async () => {
    const { token } = await createTestUser();
    const withXmp = await completedStylized(token, {
      xmp: disclosureXmp("Selfie Studio local engine (test)", DIGITAL_SOURCE_TYPES.local),
    });
    const carried = await (
      await optimizeCall({ imageId: withXmp, format: "webp" }, { token })
    ).json();
    const carriedXmp =
      (await sharp(await download(carried.optimizedUrl)).metadata()).xmp?.toString("utf8") ?? "";
    expect(digitalSourceTypeIn(carriedXmp)).toBe(DIGITAL_SOURCE_TYPES.local);
    expect(carriedXmp).toContain("Selfie Studio local engine (test)");

    // A styled file that claims the wrong type (as local files made before this did) is corrected from its row.
    const mislabelled = await completedStylized(token, {
      xmp: disclosureXmp("old local engine", DIGITAL_SOURCE_TYPES.fal),
    });
    const corrected = await (
      await optimizeCall({ imageId: mislabelled, format: "png" }, { token })
    ).json();
    const correctedXmp =
      (await sharp(await download(corrected.optimizedUrl)).metadata()).xmp?.toString("utf8") ?? "";
    expect(digitalSourceTypeIn(correctedXmp)).toBe(DIGITAL_SOURCE_TYPES.local);

    const without = await completedStylized(token);
    const added = await (await optimizeCall({ imageId: without, format: "jpg" }, { token })).json();
    const addedXmp =
      (await sharp(await download(added.optimizedUrl)).metadata()).xmp?.toString("utf8") ?? "";
    expect(digitalSourceTypeIn(addedXmp)).toBe(DIGITAL_SOURCE_TYPES.local);

    // An image fal made is trained algorithmic media in its optimized file too.
    const byFal = await completedStylized(token, { engine: "fal" });
    const falOptimized = await (
      await optimizeCall({ imageId: byFal, format: "jpg" }, { token })
    ).json();
    const falXmp =
      (await sharp(await download(falOptimized.optimizedUrl)).metadata()).xmp?.toString("utf8") ??
      "";
    expect(digitalSourceTypeIn(falXmp)).toBe(DIGITAL_SOURCE_TYPES.fal);
  });

  it("makes the marketplace's 2048x2048 at 2048 px on the long edge from a 512 px image, and records how it was enlarged", async () => {
    const { token } = await createTestUser();
    const imageId = await completedStylized(token);
    const small = await sharp(fixture("portrait.png"))
      .resize(512, 384, { fit: "fill" })
      .jpeg()
      .toBuffer();
    const row = await rowWhere("stylized_images", "*", "id", imageId);
    await getFileStore().write(row.file_key!, small);

    const response = await optimizeCall(
      { imageId, quality: 90, format: "png", resolution: "2048x2048" },
      { token },
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect([body.width, body.height]).toEqual([2048, 1536]);
    expect(body.upscaledBy).toBe("lanczos3"); // no FAL_KEY in tests: sharp's Lanczos-3
    const file = await sharp(await download(body.optimizedUrl)).metadata();
    expect([file.width, file.height]).toEqual([2048, 1536]);
    const stored = await rowWhere("stylized_images", "*", "id", imageId);
    expect(stored.optimized_upscaled_by).toBe("lanczos3");

    // A smaller preset never enlarges, and records nothing.
    const web = await (
      await optimizeCall({ imageId, format: "webp", resolution: "800x800" }, { token })
    ).json();
    expect([web.width, web.height]).toEqual([512, 384]);
    expect(web.upscaledBy).toBeNull();
  });

  it("says plainly why 2048x2048 cannot be made from an image more than 4 times smaller", async () => {
    const { token } = await createTestUser();
    const imageId = await completedStylized(token); // the test engine's 256 px
    const response = await optimizeCall(
      { imageId, format: "png", resolution: "2048x2048" },
      { token },
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.message).toBe(
      'This image is 256 × 256 px: making it 2048 px on its long edge would enlarge it more than 4 times, which only blurs it. Choose "Original" or a smaller size, or style a larger photo.',
    );
  });

  it("replaces the previous optimized file", async () => {
    const { token } = await createTestUser();
    const imageId = await completedStylized(token);
    const first = await (await optimizeCall({ imageId }, { token })).json();
    const firstKey = first.optimizedUrl.split("?")[0].replace("/media/", "");
    expect(await getFileStore().exists(firstKey)).toBe(true);
    expect(first).toMatchObject({ quality: 85, format: "webp", resolution: "original" }); // the defaults
    const second = await (await optimizeCall({ imageId, format: "png" }, { token })).json();
    expect(second.optimizedUrl).not.toBe(first.optimizedUrl);
    expect(await getFileStore().exists(firstKey)).toBe(false);
  });

  it("answers 400 naming the field for bad settings", async () => {
    const { token } = await createTestUser();
    const imageId = await completedStylized(token);
    const cases: [Record<string, unknown>, string][] = [
      [{ quality: 45 }, "quality"],
      [{ quality: 105 }, "quality"],
      [{ quality: 72 }, "quality"],
      [{ quality: 87.5 }, "quality"],
      [{ quality: "high" }, "quality"],
      [{ format: "gif" }, "format"],
      [{ resolution: "640x640" }, "resolution"],
      [{ watermark: "yes please" }, "watermark"],
    ];
    for (const [settings, field] of cases) {
      const response = await optimizeCall({ imageId, ...settings }, { token });
      expect(response.status, JSON.stringify(settings)).toBe(400);
      const body = await response.json();
      expect(Object.keys(body.fieldErrors), JSON.stringify(settings)).toEqual([field]);
      expect(body.message).toContain(field);
    }
    expect((await optimizeCall({ quality: 80 }, { token })).status).toBe(400); // no imageId
    expect((await optimizeCall("{broken", { token })).status).toBe(400);
  });

  it("answers 400 for a stylized image that is not completed, 404 for another user's, 401 signed out", async () => {
    const { token } = await createTestUser();
    const image = await (await uploadPortrait(token)).json();
    const { id } = await (await stylizeRequest(image.id, { style: "anime" }, { token })).json();
    const pending = await optimizeCall({ imageId: id }, { token });
    expect(pending.status).toBe(400);
    expect((await pending.json()).fieldErrors).toEqual({
      imageId: ["The stylized image is not completed yet"],
    });

    const other = await createTestUser();
    const theirs = await completedStylized(other.token);
    expect((await optimizeCall({ imageId: theirs }, { token })).status).toBe(404);
    expect((await optimizeCall({ imageId: theirs }, {})).status).toBe(401);
    expect(
      (await optimizeCall({ imageId: theirs }, { cookie: other.cookie, origin: "cross" })).status,
    ).toBe(403);
  });
});
