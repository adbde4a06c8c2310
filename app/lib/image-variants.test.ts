import { describe, expect, it } from "vitest";
import {
  isVariantKey,
  pictureVariants,
  variantCandidates,
  variantKey,
  variantKeysOf,
  variantSourceStem,
  variantSrcSet,
  variantUrl,
} from "~/lib/image-variants";

describe("image variants' keys and URLs", () => {
  it("names a variant after its image, and knows a variant from an image", () => {
    expect(variantKey("previews/abcdefgh12.jpg", 320, "avif")).toBe(
      "previews/abcdefgh12_320w.avif",
    );
    expect(isVariantKey("previews/abcdefgh12_320w.avif")).toBe(true);
    expect(isVariantKey("previews/abcdefgh12.jpg")).toBe(false);
    expect(isVariantKey("samples/anime_sample_v3.jpg")).toBe(false);
    expect(isVariantKey("previews/abcdefgh12_123w.webp")).toBe(false); // not one of the widths
    expect(variantSourceStem("previews/abcdefgh12_960w.jpg")).toBe("previews/abcdefgh12");
    expect(variantSourceStem("previews/abcdefgh12.jpg")).toBeNull();
    expect(variantKeysOf("styled/abcdefgh12.png")).toHaveLength(12);
  });

  it("adds w and fmt to a public or a signed URL", () => {
    expect(variantUrl("/media/previews/a.jpg", 640, "webp")).toBe(
      "/media/previews/a.jpg?w=640&fmt=webp",
    );
    expect(variantUrl("/media/styled/a.png?exp=1&sig=x", 320, "avif")).toBe(
      "/media/styled/a.png?exp=1&sig=x&w=320&fmt=avif",
    );
  });

  it("offers no width wider than the image: the last candidate is the image's own width", () => {
    expect(variantCandidates(640).map((c) => [c.width, c.descriptor])).toEqual([
      [320, 320],
      [480, 480],
      [640, 640],
    ]);
    expect(variantCandidates(512).map((c) => [c.width, c.descriptor])).toEqual([
      [320, 320],
      [480, 480],
      [640, 512],
    ]);
    expect(variantCandidates(200).map((c) => [c.width, c.descriptor])).toEqual([[320, 200]]);
    expect(variantCandidates(2000).map((c) => c.descriptor)).toEqual([320, 480, 640, 960]);
    expect(variantCandidates(null).map((c) => c.descriptor)).toEqual([320, 480, 640, 960]);
  });

  it("uses a JPEG image itself at its own width instead of a copy of it", () => {
    expect(variantSrcSet("/media/previews/a.jpg", "jpg", 640)).toBe(
      "/media/previews/a.jpg?w=320&fmt=jpg 320w, /media/previews/a.jpg?w=480&fmt=jpg 480w, /media/previews/a.jpg 640w",
    );
    expect(variantSrcSet("/media/previews/a.jpg", "avif", 640)).toContain(
      "/media/previews/a.jpg?w=640&fmt=avif 640w",
    );
    expect(variantSrcSet("/media/styled/a.png?exp=1&sig=x", "jpg", 640)).toContain(
      "?exp=1&sig=x&w=640&fmt=jpg 640w",
    );
    const made = pictureVariants("previews/a1234567.jpg", 640).map(
      ({ width, format }) => `${width}.${format}`,
    );
    expect(made).toEqual([
      "320.avif",
      "320.webp",
      "320.jpg",
      "480.avif",
      "480.webp",
      "480.jpg",
      "640.avif",
      "640.webp",
    ]);
  });
});
