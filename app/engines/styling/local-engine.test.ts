import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import sharp from "sharp";
import { STYLE_IDS, type StyleId } from "~/lib/styles";
import { DIGITAL_SOURCE_TYPE } from "~/engines/styling/ai-disclosure.server";
import { createLocalEngine, LOCAL_MAX_EDGE } from "~/engines/styling/local-engine.server";
import { seededRandom } from "~/engines/styling/seeded-random.server";
import { decodePicture } from "~/engines/styling/vision/scene.server";
import { StyleEngineError, type StyleResult } from "~/engines/styling/style-engine.server";

const fixtures = path.resolve(
  path.dirname(url.fileURLToPath(import.meta.url)),
  "../../../tests/fixtures",
);
const portrait = fs.readFileSync(path.join(fixtures, "portrait.png"));
const engine = createLocalEngine();

/** Every output of the 512x512 portrait, made once (the models load once for the whole file). */
const outputs = new Map<StyleId, StyleResult>();
beforeAll(async () => {
  for (const style of STYLE_IDS) outputs.set(style, await engine.stylize(portrait, style));
}, 120_000);

const sha256 = (data: Buffer) => crypto.createHash("sha256").update(data).digest("hex");

/** The mean absolute difference per channel (0-255) between two images, compared at 256x256. */
async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const small = (image: Buffer) =>
    sharp(image).resize(256, 256, { fit: "fill" }).removeAlpha().raw().toBuffer();
  const [x, y] = await Promise.all([small(a), small(b)]);
  let total = 0;
  for (let i = 0; i < x.length; i++) total += Math.abs(x[i] - y[i]);
  return total / x.length;
}

const longEdge = (width: number, height: number) => Math.max(width, height);

describe("local style engine", () => {
  it("says it is the local engine", () => {
    expect(engine.id).toBe("local");
  });

  it.each(STYLE_IDS)("makes a %s JPEG of the expected size", async (style) => {
    const result = outputs.get(style)!;
    const meta = await sharp(result.data).metadata();
    expect(result.format).toBe("jpg");
    expect(meta.format).toBe("jpeg");
    expect([meta.width, meta.height]).toEqual([result.width, result.height]);
    if (style === "professional") {
      // A 4:5 head-and-shoulders frame, enlarged to the upload's long edge.
      expect([result.width, result.height]).toEqual([410, 512]);
    } else {
      expect([result.width, result.height]).toEqual([512, 512]);
    }
    const { info } = await sharp(result.data).raw().toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(result.width);
  });

  // A dozen styles of up to 2600 px and a 5000 px decode: seconds alone, more beside other suites.
  it("never sells a smaller file than it was given, up to LOCAL_MAX_EDGE (4096 px) on the long edge", async () => {
    const cat = fs.readFileSync(path.join(fixtures, "cat.png"));
    const tall = await sharp(portrait).resize(600, 900, { fit: "fill" }).png().toBuffer();
    for (const input of [portrait, cat, tall]) {
      const meta = await sharp(input).metadata();
      for (const style of STYLE_IDS) {
        const result = await engine.stylize(input, style);
        expect(longEdge(result.width, result.height), style).toBeGreaterThanOrEqual(
          longEdge(meta.width!, meta.height!),
        );
      }
    }
    // A photo over the old 2048 px limit keeps its size now, and the engine says it made all of those pixels.
    const big = await sharp(portrait).resize(2600, 1950, { fit: "fill" }).jpeg().toBuffer();
    const cartoon = await engine.stylize(big, "cartoon");
    expect([cartoon.width, cartoon.height]).toEqual([2600, 1950]);
    expect(cartoon.native).toEqual({ width: 2600, height: 1950 });
    // Past the limit the picture is reduced to it (the decode is what the engine styles).
    const huge = await sharp({
      create: { width: 5000, height: 2500, channels: 3, background: "#777" },
    })
      .jpeg()
      .toBuffer();
    const picture = await decodePicture(huge, LOCAL_MAX_EDGE);
    expect([picture.width, picture.height]).toEqual([4096, 2048]);
  }, 120_000);

  it("records how the professional headshot was enlarged, and the pixels it really made", async () => {
    const professional = outputs.get("professional")!;
    const xmp = (await sharp(professional.data).metadata()).xmp!.toString("utf8");
    expect(xmp).toMatch(/enlarged 1\.\d\dx with Lanczos-3/);
    // The frame it composed, smaller than the file (a stock agency gets this size, never the enlargement).
    expect(professional.native!.height).toBeLessThan(professional.height);
    expect(professional.native!.width / professional.native!.height).toBeCloseTo(0.8, 1);
    expect(outputs.get("cartoon")!.native).toEqual({ width: 512, height: 512 });
  });

  it("frames the professional headshot on the face, 4:5, not the middle", async () => {
    // A plain grey canvas with the portrait at its right end: a centre crop would be mostly grey.
    const wide = await sharp({
      create: { width: 1400, height: 512, channels: 3, background: "#d8d8d8" },
    })
      .composite([{ input: portrait, left: 888, top: 0 }])
      .png()
      .toBuffer();
    const result = await engine.stylize(wide, "professional");
    expect(result.width / result.height).toBeCloseTo(0.8, 2);
    expect(result.height).toBeGreaterThanOrEqual(1400);
    const same = await meanDifference(result.data, outputs.get("professional")!.data);
    expect(same).toBeLessThan(20);
  });

  it("is deterministic: the same input gives the same bytes", async () => {
    for (const style of STYLE_IDS) {
      const again = await engine.stylize(portrait, style);
      expect(sha256(again.data), style).toBe(sha256(outputs.get(style)!.data));
    }
  });

  it("makes four looks that differ clearly from each other and from the photo", async () => {
    for (const [i, a] of STYLE_IDS.entries()) {
      if (a !== "professional") {
        expect(
          await meanDifference(outputs.get(a)!.data, portrait),
          `${a} vs the photo`,
        ).toBeGreaterThan(10);
      }
      for (const b of STYLE_IDS.slice(i + 1)) {
        expect(
          await meanDifference(outputs.get(a)!.data, outputs.get(b)!.data),
          `${a} vs ${b}`,
        ).toBeGreaterThan(20);
      }
    }
  });

  it("replaces the background and keeps the person", async () => {
    // The top-right corner of the fixture is studio backdrop; the middle of the face is the person.
    const region = async (image: Buffer, left: number, top: number) =>
      sharp(image).extract({ left, top, width: 40, height: 40 }).raw().toBuffer();
    for (const style of ["anime", "fantasy"] as const) {
      const styled = outputs.get(style)!.data;
      const diff = async (left: number, top: number) => {
        const [a, b] = await Promise.all([region(styled, left, top), region(portrait, left, top)]);
        let total = 0;
        for (let i = 0; i < a.length; i++) total += Math.abs(a[i] - b[i]);
        return total / a.length;
      };
      const background = await diff(330, 10);
      const face = await diff(200, 100);
      expect(background, style).toBeGreaterThan(face);
    }
  });

  it("seeds its decorations from the picture", () => {
    const sequence = (seed: string) => {
      const random = seededRandom(Buffer.from(seed));
      return Array.from({ length: 5 }, () => random());
    };
    expect(sequence("picture one")).toEqual(sequence("picture one"));
    expect(sequence("picture one")).not.toEqual(sequence("picture two"));
  });

  it.each(STYLE_IDS)(
    "%s carries the AI disclosure and nothing from the input's metadata",
    async (style) => {
      const tagged = await sharp(portrait)
        .withExif({ IFD0: { Artist: "Secret Owner", Copyright: "Secret Owner" } })
        .jpeg()
        .toBuffer();
      const result = await engine.stylize(tagged, style);
      const meta = await sharp(result.data).metadata();
      const xmp = meta.xmp?.toString("utf8") ?? "";
      expect(xmp).toContain(`Iptc4xmpExt:DigitalSourceType="${DIGITAL_SOURCE_TYPE}"`);
      expect(xmp).toContain(`local style engine v`);
      expect(xmp).toContain(`(${style})`);
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(result.data.includes("Secret Owner")).toBe(false);
    },
  );

  it("handles greyscale, transparent, 64 px, tiny and very wide inputs", async () => {
    const inputs = {
      grey: await sharp(portrait).greyscale().png().toBuffer(),
      transparent: await sharp(portrait).resize(300, 200).ensureAlpha(0.5).png().toBuffer(),
      small: await sharp(portrait).resize(64, 64).png().toBuffer(),
      tiny: await sharp(portrait).resize(9, 7).png().toBuffer(),
      wide: await sharp(portrait).resize(1600, 160, { fit: "fill" }).jpeg().toBuffer(),
    };
    for (const [name, input] of Object.entries(inputs)) {
      const meta = await sharp(input).metadata();
      for (const style of STYLE_IDS) {
        const result = await engine.stylize(input, style);
        const { info } = await sharp(result.data).raw().toBuffer({ resolveWithObject: true });
        expect(info.channels, `${name} ${style}`).toBe(3);
        expect(longEdge(info.width, info.height), `${name} ${style}`).toBeGreaterThanOrEqual(
          longEdge(meta.width!, meta.height!),
        );
      }
    }
  });

  it("styles the other fixtures too (a cat, a coffee cup, a JPEG rocket)", async () => {
    for (const name of ["cat.png", "coffee.png", "rocket.jpg"]) {
      const input = fs.readFileSync(path.join(fixtures, name));
      const meta = await sharp(input).metadata();
      const cartoon = await engine.stylize(input, "cartoon");
      expect([cartoon.width, cartoon.height]).toEqual([meta.width, meta.height]);
    }
  });

  it("rejects a buffer that is not an image, and a corrupt image, with a human message", async () => {
    for (const input of [
      Buffer.from("this is not a picture"),
      fs.readFileSync(path.join(fixtures, "truncated.jpg")),
    ]) {
      for (const style of STYLE_IDS) {
        const error = await engine.stylize(input, style).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(StyleEngineError);
        expect((error as StyleEngineError).retryable).toBe(false);
        expect((error as StyleEngineError).message).toBe("This file is not an image we can read.");
      }
    }
  });

  it("refuses to start when already cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await engine
      .stylize(portrait, "anime", { signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StyleEngineError);
    expect((error as StyleEngineError).retryable).toBe(true);
  });
});
