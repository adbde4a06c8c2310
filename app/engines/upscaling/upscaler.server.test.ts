import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  localUpscaler,
  sizeForMinimumPixels,
  upscaledPixels,
} from "~/engines/upscaling/upscaler.server";
import { selectUpscaler } from "~/engines/upscaling/select-upscaler.server";

describe("upscaling", () => {
  it("finds the smallest size of the same shape with at least the pixels asked for", () => {
    expect(sizeForMinimumPixels(1024, 1024, 4_000_000)).toEqual({ width: 2000, height: 2000 });
    const wide = sizeForMinimumPixels(1600, 900, 4_000_000);
    expect(wide.width * wide.height).toBeGreaterThanOrEqual(4_000_000);
    expect(wide.width / wide.height).toBeCloseTo(16 / 9, 2);
    expect(sizeForMinimumPixels(3000, 2000, 4_000_000)).toEqual({ width: 3000, height: 2000 });
    for (const [w, h] of [
      [512, 512],
      [333, 777],
      [1, 1],
    ]) {
      const size = sizeForMinimumPixels(w, h, 4_000_000);
      expect(size.width * size.height, `${w}x${h}`).toBeGreaterThanOrEqual(4_000_000);
    }
  });

  it("resizes locally with Lanczos-3 to exactly the size asked for, and says so", async () => {
    const input = await sharp({
      create: { width: 300, height: 200, channels: 3, background: "#3366cc" },
    })
      .png()
      .toBuffer();
    const result = await localUpscaler.upscale(input, { width: 2450, height: 1633 });
    expect(result.engine).toBe("lanczos3");
    expect(result.method).toBe("Lanczos-3 resize (sharp) from 300×200 to 2450×1633");
    const meta = await sharp(await upscaledPixels(result).png().toBuffer()).metadata();
    expect([meta.width, meta.height]).toEqual([2450, 1633]);
  });

  it("uses fal.ai's upscaler only when FAL_KEY is set", () => {
    expect(selectUpscaler({ FAL_KEY: undefined, FAL_TIMEOUT_SECONDS: 120 })).toBe(localUpscaler);
    expect(selectUpscaler({ FAL_KEY: "key", FAL_TIMEOUT_SECONDS: 120 })).not.toBe(localUpscaler);
  });
});
