import { describe, expect, it } from "vitest";
import {
  formatMegapixels,
  formatPixelSize,
  joinUpscaling,
  saleLongEdge,
  saleSize,
  upscaleLabel,
} from "~/lib/sale-size";

describe("a sold file's size", () => {
  it("is at least 2048 px and at least the upload's long edge (up to the 4096 px an upload is kept at)", () => {
    expect(saleLongEdge(0)).toBe(2048);
    expect(saleLongEdge(600)).toBe(2048);
    expect(saleLongEdge(3024)).toBe(3024);
    expect(saleLongEdge(6000)).toBe(4096);
  });

  it("enlarges a smaller file to it with the same shape, and leaves a large enough one as it is", () => {
    expect(saleSize(480, 600, 600)).toEqual({ width: 1638, height: 2048 });
    expect(saleSize(600, 480, 600)).toEqual({ width: 2048, height: 1638 });
    expect(saleSize(1024, 1024, 512)).toEqual({ width: 2048, height: 2048 });
    expect(saleSize(2048, 1536, 4032)).toEqual({ width: 4032, height: 3024 });
    expect(saleSize(2048, 1536, 512)).toEqual({ width: 2048, height: 1536 });
    expect(saleSize(4032, 3024, 4032)).toEqual({ width: 4032, height: 3024 });
    for (const [w, h, upload] of [
      [1, 1, 0],
      [333, 777, 777],
      [1023, 767, 0],
      [1500, 1200, 3000],
    ]) {
      const size = saleSize(w, h, upload);
      expect(Math.max(size.width, size.height), `${w}x${h}`).toBeGreaterThanOrEqual(
        Math.max(2048, upload),
      );
      expect(size.width / size.height, `${w}x${h}`).toBeCloseTo(w / h, 1);
    }
  });

  it("says how it was upscaled, by how much from the pixels really made", () => {
    const size = { width: 1638, height: 2048 };
    expect(upscaleLabel("lanczos3", size, { width: 480, height: 600 })).toBe(
      "upscaled with Lanczos ×3.41",
    );
    expect(upscaleLabel("fal-ai/esrgan", size, { width: 512, height: 640 })).toBe(
      "upscaled with ESRGAN ×3.2",
    );
    expect(upscaleLabel("fal-ai/esrgan+lanczos3", size, { width: 256, height: 320 })).toBe(
      "upscaled with ESRGAN and Lanczos ×6.4",
    );
    expect(upscaleLabel("lanczos3", size, null)).toBe("upscaled with Lanczos");
  });

  it("joins the engine's enlargement and the sale's, one method once in a row", () => {
    expect(joinUpscaling(null, null)).toBeNull();
    expect(joinUpscaling(null, "lanczos3")).toBe("lanczos3");
    expect(joinUpscaling("fal-ai/esrgan", null)).toBe("fal-ai/esrgan");
    expect(joinUpscaling("lanczos3", "lanczos3")).toBe("lanczos3");
    expect(joinUpscaling("fal-ai/esrgan", "lanczos3")).toBe("fal-ai/esrgan+lanczos3");
    expect(joinUpscaling("fal-ai/esrgan+lanczos3", "lanczos3")).toBe("fal-ai/esrgan+lanczos3");
  });

  it("is written with thousands separators and megapixels, whatever the locale", () => {
    expect(formatPixelSize(2048, 2560)).toBe("2,048 × 2,560 px (5.2 MP)");
    expect(formatPixelSize(480, 600)).toBe("480 × 600 px (0.3 MP)");
    expect(formatPixelSize(12000, 9000)).toBe("12,000 × 9,000 px (108.0 MP)");
    expect(formatMegapixels(10, 10)).toBe("0.1 MP");
  });
});
