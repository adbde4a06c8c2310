import sharp from "sharp";
import { newPlane, type Plane } from "~/engines/styling/vision/planes.server";

/**
 * Shared pieces of the composed styles: RGB blurs through libvips,
 * edge-preserving smoothing, smooth seeded noise for painted backgrounds,
 * soft discs and sparkles drawn with light, and the final blend of a styled
 * person over a made background by the mask.
 */

export interface Rgb {
  data: Buffer;
  width: number;
  height: number;
}

export function newRgb(width: number, height: number): Rgb {
  return { data: Buffer.alloc(width * height * 3), width, height };
}

/** An RGB image blurred by `sigma` pixels. */
export async function blurRgb(image: Rgb, sigma: number): Promise<Rgb> {
  if (sigma < 0.3) return image;
  const data = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .blur(sigma)
    .raw()
    .toBuffer();
  return { ...image, data };
}

/**
 * Edge-preserving smoothing: each pixel leans towards its blurred colour as
 * far as the two agree (a colour difference well above `keep`, summed over
 * RGB, is an edge and stays).
 */
export async function smoothRgb(image: Rgb, sigma: number, keep: number): Promise<Rgb> {
  const soft = await blurRgb(image, sigma);
  const out = Buffer.alloc(image.data.length);
  const s = image.data;
  const b = soft.data;
  const weights = new Float32Array(766);
  for (let d = 0; d < weights.length; d++) weights[d] = (keep * keep) / (keep * keep + d * d);
  for (let i = 0; i < s.length; i += 3) {
    const dr = b[i] - s[i];
    const dg = b[i + 1] - s[i + 1];
    const db = b[i + 2] - s[i + 2];
    const w = weights[Math.abs(dr) + Math.abs(dg) + Math.abs(db)];
    out[i] = s[i] + dr * w;
    out[i + 1] = s[i + 1] + dg * w;
    out[i + 2] = s[i + 2] + db * w;
  }
  return { ...image, data: out };
}

/**
 * Smooth noise in 0-1: `octaves` layers of seeded random grids (the first
 * `cells` across the long edge, each next twice as fine and half as strong),
 * each enlarged to full size by libvips' cubic interpolation.
 */
export async function smoothNoise(
  width: number,
  height: number,
  random: () => number,
  cells: number,
  octaves: number,
): Promise<Plane> {
  const out = newPlane(width, height);
  let amplitude = 1;
  let total = 0;
  for (let octave = 0; octave < octaves; octave++) {
    const across = Math.max(2, Math.round(cells * 2 ** octave));
    const gw = Math.max(2, Math.round((across * width) / Math.max(width, height)));
    const gh = Math.max(2, Math.round((across * height) / Math.max(width, height)));
    const grid = Buffer.alloc(gw * gh);
    for (let k = 0; k < grid.length; k++) grid[k] = Math.floor(random() * 256);
    const big = await sharp(grid, { raw: { width: gw, height: gh, channels: 1 } })
      .resize(width, height, { fit: "fill", kernel: "cubic" })
      .toColourspace("b-w")
      .extractChannel(0)
      .raw()
      .toBuffer();
    for (let k = 0; k < out.data.length; k++) out.data[k] += (big[k] / 255) * amplitude;
    total += amplitude;
    amplitude /= 2;
  }
  for (let k = 0; k < out.data.length; k++) out.data[k] /= total;
  return out;
}

/** Adds `light` (0-1) of `colour` to the pixel at byte `i` (screen blend: never past white). */
export function screen(o: Buffer, i: number, colour: readonly number[], light: number) {
  o[i] = 255 - ((255 - o[i]) * (255 - colour[0] * light)) / 255;
  o[i + 1] = 255 - ((255 - o[i + 1]) * (255 - colour[1] * light)) / 255;
  o[i + 2] = 255 - ((255 - o[i + 2]) * (255 - colour[2] * light)) / 255;
}

/** A soft-edged disc of `colour` over the image, `alpha` at its centre. */
export function drawDisc(
  image: Rgb,
  cx: number,
  cy: number,
  radius: number,
  colour: readonly number[],
  alpha: number,
  clip?: Plane,
) {
  const { width, height, data } = image;
  const left = Math.max(0, Math.floor(cx - radius - 1));
  const right = Math.min(width - 1, Math.ceil(cx + radius + 1));
  const top = Math.max(0, Math.floor(cy - radius - 1));
  const bottom = Math.min(height - 1, Math.ceil(cy + radius + 1));
  for (let y = top; y <= bottom; y++) {
    for (let x = left; x <= right; x++) {
      const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
      const cover = Math.min(1, Math.max(0, radius + 0.5 - d)) * alpha;
      const k = y * width + x;
      const a = clip ? cover * clip.data[k] : cover;
      if (a <= 0) continue;
      const i = k * 3;
      data[i] += (colour[0] - data[i]) * a;
      data[i + 1] += (colour[1] - data[i + 1]) * a;
      data[i + 2] += (colour[2] - data[i + 2]) * a;
    }
  }
}

/** A four-pointed sparkle of light: a soft core and two thin rays, added by screen blend. */
export function drawSparkle(
  image: Rgb,
  cx: number,
  cy: number,
  radius: number,
  colour: readonly number[],
) {
  const { width, height, data } = image;
  const core = Math.max(0.8, radius / 6);
  const reach = Math.ceil(radius);
  for (let y = Math.max(0, Math.floor(cy - reach)); y <= Math.min(height - 1, cy + reach); y++) {
    const dy = y + 0.5 - cy;
    for (let x = Math.max(0, Math.floor(cx - reach)); x <= Math.min(width - 1, cx + reach); x++) {
      const dx = x + 0.5 - cx;
      const glow = 1 / (1 + (dx * dx + dy * dy) / (core * core));
      const rayX = Math.max(0, 1 - Math.abs(dx) / radius) / (1 + (dy * dy) / 0.6);
      const rayY = Math.max(0, 1 - Math.abs(dy) / radius) / (1 + (dx * dx) / 0.6);
      const light = Math.min(1, glow * glow + 0.9 * (rayX + rayY));
      if (light > 0.01) screen(data, (y * width + x) * 3, colour, light);
    }
  }
}

/** The person (`front`) over the background (`back`) by the mask, into a new image. */
export function overBy(front: Rgb, back: Rgb, mask: Plane): Rgb {
  const out = newRgb(front.width, front.height);
  const f = front.data;
  const b = back.data;
  const m = mask.data;
  for (let k = 0, i = 0; k < m.length; k++, i += 3) {
    const a = m[k];
    out.data[i] = b[i] + (f[i] - b[i]) * a;
    out.data[i + 1] = b[i + 1] + (f[i + 1] - b[i + 1]) * a;
    out.data[i + 2] = b[i + 2] + (f[i + 2] - b[i + 2]) * a;
  }
  return out;
}

/** The Rec. 601 brightness of the pixel at byte `i`, 0-255. */
export function lumaAt(data: Buffer, i: number): number {
  return 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
}

/**
 * An RGB image blurred by a wide `sigma` cheaply: made small enough that the
 * blur is a few pixels, blurred there and enlarged again (bilinear-smooth,
 * fine for light and glow, which have no edges to keep).
 */
export async function wideBlurRgb(image: Rgb, sigma: number): Promise<Rgb> {
  const { width, height } = image;
  const factor = Math.max(1, Math.floor(sigma / 3));
  if (factor === 1) return blurRgb(image, sigma);
  const smallWidth = Math.max(1, Math.round(width / factor));
  const smallHeight = Math.max(1, Math.round(height / factor));
  const small = await sharp(image.data, { raw: { width, height, channels: 3 } })
    .resize(smallWidth, smallHeight, { fit: "fill", kernel: "linear" })
    .blur(Math.max(0.3, sigma / factor))
    .raw()
    .toBuffer();
  const data = await sharp(small, { raw: { width: smallWidth, height: smallHeight, channels: 3 } })
    .resize(width, height, { fit: "fill", kernel: "cubic" })
    .raw()
    .toBuffer();
  return { data, width, height };
}

/**
 * A stroke of `colour` along a polyline, `thickness` pixels wide at each
 * point (the width eases from point to point), with soft one-pixel edges.
 */
export function drawStroke(
  image: Rgb,
  points: ReadonlyArray<readonly [number, number]>,
  thickness: ReadonlyArray<number>,
  colour: readonly number[],
  alpha: number,
) {
  const { width, height, data } = image;
  const widest = Math.max(...thickness) / 2 + 1;
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const left = Math.max(0, Math.floor(Math.min(...xs) - widest));
  const right = Math.min(width - 1, Math.ceil(Math.max(...xs) + widest));
  const top = Math.max(0, Math.floor(Math.min(...ys) - widest));
  const bottom = Math.min(height - 1, Math.ceil(Math.max(...ys) + widest));
  for (let y = top; y <= bottom; y++) {
    for (let x = left; x <= right; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      let cover = 0;
      for (let s = 0; s + 1 < points.length; s++) {
        const [ax, ay] = points[s];
        const [bx, by] = points[s + 1];
        const dx = bx - ax;
        const dy = by - ay;
        const length = dx * dx + dy * dy || 1;
        const t = Math.min(1, Math.max(0, ((px - ax) * dx + (py - ay) * dy) / length));
        const d = Math.hypot(px - (ax + dx * t), py - (ay + dy * t));
        const half = (thickness[s] + (thickness[s + 1] - thickness[s]) * t) / 2;
        cover = Math.max(cover, Math.min(1, Math.max(0, half + 0.5 - d)));
      }
      const a = cover * alpha;
      if (a <= 0) continue;
      const i = (y * width + x) * 3;
      data[i] += (colour[0] - data[i]) * a;
      data[i + 1] += (colour[1] - data[i + 1]) * a;
      data[i + 2] += (colour[2] - data[i + 2]) * a;
    }
  }
}

/**
 * An ellipse of `colour`, `alpha` within and fading to nothing at its rim
 * over `edge` of its radius (1: soft all the way from the centre).
 */
export function drawSoftEllipse(
  image: Rgb,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  colour: readonly number[],
  alpha: number,
  edge = 1,
) {
  const { width, height, data } = image;
  for (let y = Math.max(0, Math.floor(cy - ry)); y <= Math.min(height - 1, cy + ry); y++) {
    for (let x = Math.max(0, Math.floor(cx - rx)); x <= Math.min(width - 1, cx + rx); x++) {
      const r = Math.hypot((x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry);
      if (r >= 1) continue;
      const fade = Math.min(1, (1 - r) / edge);
      const a = alpha * fade * fade * (3 - 2 * fade);
      const i = (y * width + x) * 3;
      data[i] += (colour[0] - data[i]) * a;
      data[i + 1] += (colour[1] - data[i + 1]) * a;
      data[i + 2] += (colour[2] - data[i + 2]) * a;
    }
  }
}
