import { luma, newWordImage, wordsOf } from "~/engines/styling/pixel-words.server";
import { fromRaw, type RawImage } from "~/engines/styling/raw-image.server";

/**
 * An RGB image at half size (each pixel the average of a 2x2 block), blurred
 * by `sigma` (in half-size pixels), in one libvips pass. Colour and light
 * effects are smooth, so the styles work them at half size (a quarter of the
 * work) and read them back at (x >> 1, y >> 1); outlines and detail stay at
 * full size.
 */
export async function blurredHalfOf(image: RawImage, sigma: number): Promise<RawImage> {
  const width = (image.width + 1) >> 1;
  const height = (image.height + 1) >> 1;
  const data = await fromRaw(image)
    .resize(width, height, { fit: "fill", kernel: "linear" })
    .blur(sigma)
    .raw()
    .toBuffer();
  return { data, width, height, channels: 3 };
}

/** The brightness of each pixel of an RGB image (Rec. 601 weights), as a 1-channel image. */
export function lumaOf(image: RawImage): RawImage {
  // Four pixels at a time (see pixel-words).
  const pixels = image.width * image.height;
  const s = wordsOf(image);
  const { image: out, words } = newWordImage(image.width, image.height, 1);
  for (let n = 0, q = 0, o = 0; n < pixels; n += 4, q += 3, o++) {
    const a = s[q],
      b = s[q + 1],
      c = s[q + 2];
    words[o] =
      luma(a & 255, (a >>> 8) & 255, (a >>> 16) & 255) |
      (luma(a >>> 24, b & 255, (b >>> 8) & 255) << 8) |
      (luma((b >>> 16) & 255, b >>> 24, c & 255) << 16) |
      (luma((c >>> 8) & 255, (c >>> 16) & 255, c >>> 24) << 24);
  }
  return out;
}

/**
 * A bright-pass at half size, straight from a full-size RGB image or
 * brightness plane: how far each 2x2 block's brightness is above
 * `threshold`, times `gain`, as a grey plane (one pixel of the block stands
 * for it; fine for glows and blooms, which are blurred far wider than a
 * pixel).
 */
export function halfBrightPass(image: RawImage, threshold: number, gain: number): RawImage {
  const table = new Uint8ClampedArray(256);
  for (let v = 0; v < 256; v++) table[v] = (v - threshold) * gain;
  const width = (image.width + 1) >> 1;
  const height = (image.height + 1) >> 1;
  const s = image.data;
  const { image: out } = newWordImage(width, height, 1);
  const o = out.data;
  if (image.channels === 1) {
    for (let y = 0, p = 0; y < height; y++) {
      for (let x = 0, i = 2 * y * image.width; x < width; x++, p++, i += 2) o[p] = table[s[i]];
    }
  } else {
    const rowBytes = image.width * 3 * 2;
    for (let y = 0, p = 0; y < height; y++) {
      for (let x = 0, i = y * rowBytes; x < width; x++, p++, i += 6) {
        o[p] = table[luma(s[i], s[i + 1], s[i + 2])];
      }
    }
  }
  return out;
}
