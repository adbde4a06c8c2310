import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { HttpError } from "~/infra/errors.server";
import {
  declaredPngSize,
  drawnSignaturePng,
} from "~/features/publishing/releases/drawn-signature.server";
import { pngDataUrl, pngDeclaring } from "#tests/setup/hostile-files";

/**
 * A drawn signature is bounded by the size its PNG declares before anything
 * decodes it, then made into a small PNG by sharp: the only one pdf-lib sees.
 */

async function refusal(dataUrl: string): Promise<HttpError> {
  const error = await drawnSignaturePng(dataUrl).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

function canvas(width: number, height: number) {
  return sharp({ create: { width, height, channels: 4, background: "#0b1a5a80" } })
    .png()
    .toBuffer();
}

describe("drawnSignaturePng", () => {
  it("reads the size a PNG declares from its header alone", () => {
    expect(declaredPngSize(pngDeclaring(8000, 6000).subarray(0, 40))).toEqual({
      width: 8000,
      height: 6000,
    });
    expect(declaredPngSize(Buffer.from("GIF89a and more bytes than a header needs"))).toBeNull();
  });

  it("refuses a PNG declaring more than 2000 pixels a side or 1,000,000 in all (400, the form's message), before decoding it", async () => {
    for (const [width, height] of [
      [8000, 8000],
      [2001, 10],
      [10, 2001],
      [1001, 1000],
    ]) {
      const error = await refusal(pngDataUrl(pngDeclaring(width, height)));
      expect(error.status, `${width} × ${height}`).toBe(400);
      expect(error.message).toMatch(/drawn signature is too large/);
      expect(error.fieldErrors).toEqual({ drawnSignature: [error.message] });
    }
    // Decoding 8000 × 8000 pixels takes about 7 s: the header alone is read well within 3 s, even on a busy machine.
    const started = performance.now();
    await refusal(pngDataUrl(pngDeclaring(8000, 8000)));
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("refuses what is not a PNG, and a PNG that does not decode (415)", async () => {
    expect((await refusal("data:text/html;base64,PGI+")).status).toBe(415);
    expect((await refusal("data:image/png;base64,R0lGODlhAQABAAAAACw=")).status).toBe(415);
    const cut = pngDeclaring(400, 100);
    const broken = Buffer.concat([cut.subarray(0, 33), Buffer.from("not a deflate stream")]);
    const error = await refusal(pngDataUrl(broken));
    expect(error.status).toBe(415);
    expect(error.message).toBe("The drawn signature could not be read as a PNG image.");
  });

  it("makes a PNG of at most 660 × 210 pixels, keeping its transparency and a canvas's own size", async () => {
    const fromCanvas = await drawnSignaturePng(pngDataUrl(await canvas(480, 140)));
    expect(await sharp(fromCanvas!).metadata()).toMatchObject({
      format: "png",
      width: 480,
      height: 140,
      hasAlpha: true,
    });
    const large = await drawnSignaturePng(pngDataUrl(await canvas(1500, 500)));
    expect(await sharp(large!).metadata()).toMatchObject({ width: 630, height: 210 });
    expect(await drawnSignaturePng(undefined)).toBeNull();
  });
});
