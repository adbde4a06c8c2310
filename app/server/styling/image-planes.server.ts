import { fromRaw, type RawImage } from "./raw-image.server";

/**
 * An RGB image at half size (each output pixel the average of a 2x2 block),
 * made natively by libvips. Colour and light effects are smooth, so the
 * styles compute them at half size (a quarter of the work) and read them back
 * at (x >> 1, y >> 1); outlines and detail stay at full size.
 */
export async function halfOf(image: RawImage): Promise<RawImage> {
  const width = (image.width + 1) >> 1;
  const height = (image.height + 1) >> 1;
  const data = await fromRaw(image)
    .resize(width, height, { fit: "fill", kernel: "linear" })
    .raw()
    .toBuffer();
  return { data, width, height, channels: 3 };
}

/** The brightness of each pixel of an RGB image (Rec. 601 weights), as a 1-channel image. */
export function lumaOf(image: RawImage): RawImage {
  const pixels = image.width * image.height;
  const out = Buffer.allocUnsafe(pixels);
  const s = image.data;
  for (let p = 0, i = 0; p < pixels; p++, i += 3) {
    out[p] = (77 * s[i] + 150 * s[i + 1] + 29 * s[i + 2] + 128) >> 8;
  }
  return { data: out, width: image.width, height: image.height, channels: 1 };
}

/**
 * A bright-pass of an RGB image as a grey plane: how far each pixel's
 * brightness is above `threshold`, times `gain`. The source of glows and blooms.
 */
export function brightPass(image: RawImage, threshold: number, gain: number): RawImage {
  const table = new Uint8ClampedArray(256);
  for (let v = 0; v < 256; v++) table[v] = (v - threshold) * gain;
  const pixels = image.width * image.height;
  const out = Buffer.allocUnsafe(pixels);
  const s = image.data;
  for (let p = 0, i = 0; p < pixels; p++, i += 3) {
    out[p] = table[(77 * s[i] + 150 * s[i + 1] + 29 * s[i + 2] + 128) >> 8];
  }
  return { data: out, width: image.width, height: image.height, channels: 1 };
}
