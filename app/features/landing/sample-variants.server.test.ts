import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";
import { STYLE_IDS } from "~/lib/styles";
import { pictureVariants, variantKey } from "~/lib/image-variants";
import { getFileStore } from "~/infra/file-store.server";
import { enableVariantWarmUp } from "~/infra/image-variants.server";
import { styleSampleKey } from "~/engines/styling/style-samples.server";
import { sampleWidth, warmSampleVariants } from "~/features/landing/sample-variants.server";

describe("the landing samples' variants", () => {
  it("reads a sample's width, and makes its AVIF, WebP and smaller JPEG copies in the background", async () => {
    const store = getFileStore();
    const image = await sharp({
      create: { width: 512, height: 512, channels: 3, background: "#a05030" },
    })
      .jpeg()
      .toBuffer();
    for (const style of STYLE_IDS) await store.write(styleSampleKey(style), image);
    const key = styleSampleKey(STYLE_IDS[0]);
    expect(await sampleWidth(store, key)).toBe(512);

    enableVariantWarmUp();
    try {
      await warmSampleVariants(store);
      const wanted = STYLE_IDS.flatMap((style) =>
        pictureVariants(styleSampleKey(style), 512).map(({ width, format }) =>
          variantKey(styleSampleKey(style), width, format),
        ),
      );
      expect(wanted).toContain(variantKey(key, 640, "webp")); // capped at the sample's 512 px
      await vi.waitFor(
        async () =>
          expect((await Promise.all(wanted.map((k) => store.exists(k)))).every(Boolean)).toBe(true),
        {
          timeout: 30_000,
          interval: 100,
        },
      );
      expect((await sharp(await store.read(variantKey(key, 640, "webp"))).metadata()).width).toBe(
        512,
      );
      // The JPEG at the sample's own width is the sample itself: no copy of it.
      expect(await store.exists(variantKey(key, 640, "jpg"))).toBe(false);
    } finally {
      enableVariantWarmUp(false);
    }
  });
});
