import sharp, { type Sharp } from "sharp";
import { describe, expect, it } from "vitest";
import {
  DIGITAL_SOURCE_TYPES,
  digitalSourceTypeCode,
  digitalSourceTypeIn,
  digitalSourceTypeOf,
  digitalSourceTypeOfFile,
  disclosureXmp,
  encodeStyledImage,
} from "~/engines/styling/ai-disclosure.server";

const pixels = () =>
  sharp({ create: { width: 32, height: 24, channels: 3, background: "#3a7bd5" } });

describe("the AI disclosure", () => {
  it("names IPTC's full URIs: composite for the local engine, trainedAlgorithmicMedia for fal", () => {
    expect(DIGITAL_SOURCE_TYPES).toEqual({
      local: "http://cv.iptc.org/newscodes/digitalsourcetype/composite",
      fal: "http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia",
    });
    expect(digitalSourceTypeOf("local")).toBe(DIGITAL_SOURCE_TYPES.local);
    expect(digitalSourceTypeOf("fal")).toBe(DIGITAL_SOURCE_TYPES.fal);
    expect(digitalSourceTypeCode(DIGITAL_SOURCE_TYPES.fal)).toBe("trainedAlgorithmicMedia");
  });

  it("writes the engine's value into the encoded file, read back from its bytes", async () => {
    const local = await encodeStyledImage(pixels(), "local tool");
    const fal = await encodeStyledImage(pixels(), "fal tool", {
      sourceType: DIGITAL_SOURCE_TYPES.fal,
    });
    expect(digitalSourceTypeIn((await sharp(local.data).metadata()).xmp)).toBe(
      DIGITAL_SOURCE_TYPES.local,
    );
    expect(digitalSourceTypeIn((await sharp(fal.data).metadata()).xmp)).toBe(
      DIGITAL_SOURCE_TYPES.fal,
    );
    expect(digitalSourceTypeOfFile(local.data)).toBe(DIGITAL_SOURCE_TYPES.local);
    expect(digitalSourceTypeOfFile(fal.data)).toBe(DIGITAL_SOURCE_TYPES.fal);
  });

  it("finds a file's value without decoding it, in JPEG, WebP and PNG (whose XMP libvips deflates)", async () => {
    const xmp = disclosureXmp("fal tool", DIGITAL_SOURCE_TYPES.fal);
    for (const encode of [
      (image: Sharp) => image.jpeg(),
      (image: Sharp) => image.webp(),
      (image: Sharp) => image.png(),
    ]) {
      const bytes = await encode(pixels()).withXmp(xmp).toBuffer();
      expect(digitalSourceTypeOfFile(bytes)).toBe(DIGITAL_SOURCE_TYPES.fal);
    }
    // No XMP, or a value outside IPTC's vocabulary: taken as the local engine's.
    expect(digitalSourceTypeOfFile(await pixels().png().toBuffer())).toBe(
      DIGITAL_SOURCE_TYPES.local,
    );
    const foreign = disclosureXmp("x", "https://example.com/madeUp");
    expect(digitalSourceTypeOfFile(await pixels().jpeg().withXmp(foreign).toBuffer())).toBe(
      DIGITAL_SOURCE_TYPES.local,
    );
  });
});
