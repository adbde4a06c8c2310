import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import sharp from "sharp";
import { STYLE_IDS, type StyleId } from "~/lib/styles";
import { DIGITAL_SOURCE_TYPE } from "~/engines/styling/ai-disclosure.server";
import { createLocalEngine } from "~/engines/styling/local-engine.server";
import { newRawImage } from "~/engines/styling/raw-image.server";
import { seededRandom } from "~/engines/styling/seeded-random.server";
import { drawSparkles } from "~/engines/styling/sparkles.server";
import { StyleEngineError, type StyleResult } from "~/engines/styling/style-engine.server";

const fixtures = path.resolve(
  path.dirname(url.fileURLToPath(import.meta.url)),
  "../../../tests/fixtures",
);
const portrait = fs.readFileSync(path.join(fixtures, "portrait.png"));
const engine = createLocalEngine();

/** Every output of the 512x512 portrait, made once. */
const outputs = new Map<StyleId, StyleResult>();
beforeAll(async () => {
  for (const style of STYLE_IDS) outputs.set(style, await engine.stylize(portrait, style));
});

/** The mean absolute difference per channel (0-255) between two images, compared at 256x256. */
async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const small = (image: Buffer) =>
    sharp(image).resize(256, 256, { fit: "fill" }).removeAlpha().raw().toBuffer();
  const [x, y] = await Promise.all([small(a), small(b)]);
  let total = 0;
  for (let i = 0; i < x.length; i++) total += Math.abs(x[i] - y[i]);
  return total / x.length;
}

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
      // A square headshot crop: 78% of the short side, never enlarged.
      expect([result.width, result.height]).toEqual([399, 399]);
    } else {
      expect([result.width, result.height]).toEqual([512, 512]);
    }
    // It decodes completely (not just a valid header).
    const { info } = await sharp(result.data).raw().toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(result.width);
  });

  it("caps the long edge at 1024 px and keeps the aspect ratio", async () => {
    const big = await sharp(portrait).resize(2000, 1500, { fit: "fill" }).jpeg().toBuffer();
    const cartoon = await engine.stylize(big, "cartoon");
    expect([cartoon.width, cartoon.height]).toEqual([1024, 768]);
    const professional = await engine.stylize(big, "professional");
    expect([professional.width, professional.height]).toEqual([1024, 1024]);
    const tall = await sharp(portrait).resize(600, 900, { fit: "fill" }).png().toBuffer();
    const fantasy = await engine.stylize(tall, "fantasy");
    expect([fantasy.width, fantasy.height]).toEqual([600, 900]);
  });

  it("frames the professional headshot on the subject (sharp's attention), not the middle", async () => {
    // A plain grey canvas with the portrait at its right end: a centre or top-left crop would be mostly grey.
    const wide = await sharp({
      create: { width: 1400, height: 512, channels: 3, background: "#d8d8d8" },
    })
      .composite([{ input: portrait, left: 888, top: 0 }])
      .png()
      .toBuffer();
    const result = await engine.stylize(wide, "professional");
    expect([result.width, result.height]).toEqual([399, 399]);
    const stats = await sharp(result.data).stats();
    expect(stats.channels[0].stdev).toBeGreaterThan(35);
    // The orange suit is in the frame.
    expect(stats.channels[0].mean - stats.channels[2].mean).toBeGreaterThan(20);
  });

  it("is deterministic: the same input gives the same bytes", async () => {
    for (const style of STYLE_IDS) {
      const again = await engine.stylize(portrait, style);
      expect(again.data.equals(outputs.get(style)!.data), style).toBe(true);
    }
  });

  it("makes four looks that differ clearly from each other and from the photo", async () => {
    for (const [i, a] of STYLE_IDS.entries()) {
      expect(
        await meanDifference(outputs.get(a)!.data, portrait),
        `${a} vs the photo`,
      ).toBeGreaterThan(10);
      for (const b of STYLE_IDS.slice(i + 1)) {
        expect(
          await meanDifference(outputs.get(a)!.data, outputs.get(b)!.data),
          `${a} vs ${b}`,
        ).toBeGreaterThan(25);
      }
    }
  });

  it("cartoon uses a few flat colours; the photo does not", async () => {
    const distinctColours = async (image: Buffer) => {
      const raw = await sharp(image).raw().toBuffer();
      const colours = new Set<number>();
      // Coarse buckets, so JPEG noise does not count as colours.
      for (let i = 0; i < raw.length; i += 3)
        colours.add(((raw[i] >> 4) << 8) | ((raw[i + 1] >> 4) << 4) | (raw[i + 2] >> 4));
      return colours.size;
    };
    const photo = await distinctColours(await sharp(portrait).jpeg({ quality: 90 }).toBuffer());
    expect(await distinctColours(outputs.get("cartoon")!.data)).toBeLessThan(photo * 0.6);
  });

  it("places fantasy sparkles from a generator seeded by the picture", () => {
    const sequence = (seed: string) => {
      const random = seededRandom(Buffer.from(seed));
      return Array.from({ length: 5 }, () => random());
    };
    expect(sequence("picture one")).toEqual(sequence("picture one"));
    expect(sequence("picture one")).not.toEqual(sequence("picture two"));

    const lit = (seed: string) => {
      const image = newRawImage(256, 256, 3);
      drawSparkles(image, seededRandom(Buffer.from(seed)), 40);
      return image.data;
    };
    const first = lit("picture one");
    expect(first.some((value) => value > 200)).toBe(true);
    expect(lit("picture one").equals(first)).toBe(true);
    expect(lit("picture two").equals(first)).toBe(false);
  });

  it.each(STYLE_IDS)(
    "%s carries the AI disclosure and nothing from the input's metadata",
    async (style) => {
      const tagged = await sharp(portrait)
        .jpeg()
        .withExif({ IFD0: { Artist: "Original Photographer", Copyright: "Secret Owner" } })
        .toBuffer();
      expect((await sharp(tagged).metadata()).exif).toBeDefined();
      const result = await engine.stylize(tagged, style);
      const meta = await sharp(result.data).metadata();
      const xmp = meta.xmp?.toString("utf8") ?? "";
      expect(xmp).toContain(`Iptc4xmpExt:DigitalSourceType="${DIGITAL_SOURCE_TYPE}"`);
      expect(xmp).toContain("local style engine");
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(result.data.includes("Secret Owner")).toBe(false);
    },
  );

  it("handles greyscale, transparent and small inputs", async () => {
    const grey = await sharp(portrait).greyscale().png().toBuffer();
    const transparent = await sharp(portrait).resize(300, 200).ensureAlpha(0.5).png().toBuffer();
    const tiny = await sharp(portrait).resize(9, 7).png().toBuffer();
    for (const input of [grey, transparent, tiny]) {
      for (const style of STYLE_IDS) {
        const result = await engine.stylize(input, style);
        const { info } = await sharp(result.data).raw().toBuffer({ resolveWithObject: true });
        expect(info.channels).toBe(3);
      }
    }
  });

  it("styles the other fixtures too (a cat, a JPEG rocket)", async () => {
    for (const name of ["cat.png", "rocket.jpg"]) {
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
