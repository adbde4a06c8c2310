import fs from "node:fs";
import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";
import { getLocalFileStore, newFileKey } from "~/infra/file-store.server";
import {
  enableVariantWarmUp,
  ensureVariant,
  makeVariants,
  warmVariants,
} from "~/infra/image-variants.server";
import { pictureVariants, variantKey } from "~/lib/image-variants";

/** A stored JPEG `width` x `height` with some detail in it. */
async function storedJpeg(width: number, height: number): Promise<string> {
  const noise = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .jpeg()
    .toBuffer();
  const key = newFileKey("previews", "jpg");
  await getLocalFileStore().write(key, noise);
  return key;
}

describe("image variants", () => {
  it("makes AVIF, WebP and JPEG copies at a width, never wider than the image", async () => {
    const store = getLocalFileStore();
    const key = await storedJpeg(640, 400);
    for (const [format, expected] of [
      ["avif", "heif"],
      ["webp", "webp"],
      ["jpg", "jpeg"],
    ] as const) {
      const made = await ensureVariant(store, key, 320, format);
      expect(made).toBe(variantKey(key, 320, format));
      const meta = await sharp(await store.read(made!)).metadata();
      expect(meta.format).toBe(expected);
      expect([meta.width, meta.height]).toEqual([320, 200]);
    }
    const capped = await sharp(
      await store.read((await ensureVariant(store, key, 960, "webp"))!),
    ).metadata();
    expect([capped.width, capped.height]).toEqual([640, 400]);
  });

  it("encodes a variant once: a second call, or a call while it is being made, reuses it", async () => {
    const store = getLocalFileStore();
    const key = await storedJpeg(800, 800);
    const write = vi.spyOn(store, "write");
    const [first, second] = await Promise.all([
      ensureVariant(store, key, 480, "avif"),
      ensureVariant(store, key, 480, "avif"),
    ]);
    expect(first).toBe(second);
    const { mtimeMs } = fs.statSync(store.pathOf(first!));
    expect(await ensureVariant(store, key, 480, "avif")).toBe(first);
    expect(write).toHaveBeenCalledTimes(1);
    expect(fs.statSync(store.pathOf(first!)).mtimeMs).toBe(mtimeMs);
  });

  it("answers null for an image that is gone", async () => {
    expect(
      await ensureVariant(getLocalFileStore(), "previews/missingmissing.jpg", 320, "webp"),
    ).toBeNull();
  });

  it("makes the variants a picture asks for ahead of time, only when warm-up is on", async () => {
    const store = getLocalFileStore();
    const key = await storedJpeg(640, 640);
    const wanted = pictureVariants(key, 640);
    warmVariants(store, key, wanted); // off: nothing happens
    expect(await store.exists(variantKey(key, 320, "avif"))).toBe(false);
    expect(await makeVariants(store, key, wanted)).toHaveLength(8);
    expect(await makeVariants(store, key, wanted)).toHaveLength(0);
    const other = await storedJpeg(640, 640);
    enableVariantWarmUp();
    try {
      warmVariants(store, other, wanted);
      await vi.waitFor(
        async () => expect(await store.exists(variantKey(other, 640, "webp"))).toBe(true),
        { timeout: 10_000 },
      );
    } finally {
      enableVariantWarmUp(false);
    }
  });

  it("makes a visitor's variant before background warm-ups still waiting", async () => {
    const store = getLocalFileStore();
    const warmed = await Promise.all([
      storedJpeg(640, 640),
      storedJpeg(640, 640),
      storedJpeg(640, 640),
    ]);
    const visited = await storedJpeg(640, 640);
    const wanted = pictureVariants(warmed[0], 640);
    const allWarm = warmed.flatMap((key) =>
      wanted.map(({ width, format }) => variantKey(key, width, format)),
    );
    enableVariantWarmUp();
    try {
      for (const key of warmed) warmVariants(store, key, wanted);
      await ensureVariant(store, visited, 640, "avif");
      const doneBefore = (await Promise.all(allWarm.map((key) => store.exists(key)))).filter(
        Boolean,
      ).length;
      expect(doneBefore).toBeLessThan(allWarm.length / 2);
      await vi.waitFor(
        async () =>
          expect((await Promise.all(allWarm.map((key) => store.exists(key)))).every(Boolean)).toBe(
            true,
          ),
        {
          timeout: 30_000,
          interval: 100,
        },
      );
    } finally {
      enableVariantWarmUp(false);
    }
  });

  it("removes an image's variants with it", async () => {
    const store = getLocalFileStore();
    const key = await storedJpeg(640, 640);
    const variant = (await ensureVariant(store, key, 320, "webp"))!;
    await store.remove(key);
    expect(await store.exists(key)).toBe(false);
    expect(await store.exists(variant)).toBe(false);
  });
});
