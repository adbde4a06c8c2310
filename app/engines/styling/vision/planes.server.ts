import sharp from "sharp";

/**
 * Float planes (one value per pixel, row by row) and the few operations the
 * composed styles need on them: a box filter (running sums, separable),
 * resizing and blurring through libvips, and conversion from bytes.
 */
export interface Plane {
  data: Float32Array;
  width: number;
  height: number;
}

export function newPlane(width: number, height: number, fill = 0): Plane {
  const data = new Float32Array(width * height);
  if (fill !== 0) data.fill(fill);
  return { data, width, height };
}

/** The mean over a (2r+1) square around each pixel (the square clipped at the borders). */
export function boxFilter(plane: Plane, radius: number): Plane {
  const { width, height } = plane;
  const src = plane.data;
  const rows = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    let count = 0;
    for (let x = 0; x < Math.min(radius, width); x++, count++) sum += src[row + x];
    for (let x = 0; x < width; x++) {
      const enter = x + radius;
      const leave = x - radius - 1;
      if (enter < width) {
        sum += src[row + enter];
        count++;
      }
      if (leave >= 0) {
        sum -= src[row + leave];
        count--;
      }
      rows[row + x] = sum / count;
    }
  }
  const out = new Float32Array(width * height);
  const sums = new Float32Array(width);
  let count = 0;
  for (let y = 0; y < Math.min(radius, height); y++, count++) {
    for (let x = 0, i = y * width; x < width; x++, i++) sums[x] += rows[i];
  }
  for (let y = 0; y < height; y++) {
    const enter = y + radius;
    const leave = y - radius - 1;
    if (enter < height) {
      for (let x = 0, i = enter * width; x < width; x++, i++) sums[x] += rows[i];
      count++;
    }
    if (leave >= 0) {
      for (let x = 0, i = leave * width; x < width; x++, i++) sums[x] -= rows[i];
      count--;
    }
    for (let x = 0, i = y * width; x < width; x++, i++) out[i] = sums[x] / count;
  }
  return { data: out, width, height };
}

/** 0-255 bytes as a 0-1 plane. */
export function planeOfBytes(bytes: Uint8Array, width: number, height: number): Plane {
  const data = new Float32Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = bytes[i] / 255;
  return { data, width, height };
}

/** A 0-1 plane as 0-255 bytes. */
export function bytesOfPlane(plane: Plane): Buffer {
  const out = Buffer.alloc(plane.data.length);
  for (let i = 0; i < out.length; i++) {
    const v = plane.data[i] * 255 + 0.5;
    out[i] = v <= 0 ? 0 : v >= 255 ? 255 : v;
  }
  return out;
}

/** A 0-1 plane through libvips: resized to `width` x `height` and/or blurred (sigma in output pixels). */
export async function resampled(
  plane: Plane,
  width: number,
  height: number,
  sigma = 0,
): Promise<Plane> {
  let pipeline = sharp(bytesOfPlane(plane), {
    raw: { width: plane.width, height: plane.height, channels: 1 },
  });
  if (width !== plane.width || height !== plane.height) {
    pipeline = sharp(
      await pipeline
        .resize(width, height, { fit: "fill", kernel: "cubic" })
        .toColourspace("b-w")
        .raw()
        .toBuffer(),
      { raw: { width, height, channels: 1 } },
    );
  }
  if (sigma >= 0.3) pipeline = pipeline.blur(sigma);
  const data = await pipeline.toColourspace("b-w").extractChannel(0).raw().toBuffer();
  return planeOfBytes(data, width, height);
}

/** A plane blurred by `sigma` pixels (libvips, 8-bit precision). */
export function blurred(plane: Plane, sigma: number): Promise<Plane> {
  return resampled(plane, plane.width, plane.height, sigma);
}

/** Smooth step from 0 at `edge0` to 1 at `edge1`. */
export function smoothstep(edge0: number, edge1: number, value: number): number {
  const t = Math.min(1, Math.max(0, (value - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
}
