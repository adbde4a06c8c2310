import { STYLED_MAX_EDGE } from "../ai-disclosure.server";
import { halfOf, lumaOf } from "../image-planes.server";
import { edgeBands, inkTable } from "../line-art.server";
import { medianCutPalette, nearestColourTable } from "../palette.server";
import { blur, decodeRgb, inBackground, newRawImage, type RawImage } from "../raw-image.server";

const PALETTE_SIZE = 12;
const SATURATION = 1.35;
/** Colour differences (sum over RGB) around this size count as edges the smoothing keeps. */
const EDGE_KEEP = 36;
const INK = [12, 10, 24];

/**
 * Cartoon: edge-preserving smoothing (a blur that backs off wherever the
 * picture changes sharply), a handful of flat colours (the picture's own
 * palette by median cut, made more vivid), then bold dark outlines. Colour is
 * worked at half size (it is flat anyway); the outlines at full size.
 */
export async function renderCartoon(input: Buffer): Promise<RawImage> {
  const src = await decodeRgb(input, STYLED_MAX_EDGE);
  // libvips halves the image while JavaScript computes the brightness plane for the outlines.
  const halfPromise = inBackground(halfOf(src));
  const edgesPromise = inBackground(edgeBands(lumaOf(src), 2));
  const half = await halfPromise;
  const softPromise = inBackground(blur(half, 2));

  // While libvips blurs: the palette, and a table from colour to nearest palette entry.
  const picked = medianCutPalette(half, PALETTE_SIZE);
  const nearest = nearestColourTable(picked);
  const palette = new Uint8ClampedArray(picked.length);
  for (let k = 0; k < picked.length; k += 3) {
    const y = 0.299 * picked[k] + 0.587 * picked[k + 1] + 0.114 * picked[k + 2];
    for (let c = 0; c < 3; c++) palette[k + c] = y + (picked[k + c] - y) * SATURATION + 6;
  }
  const smoothing = new Float32Array(766);
  for (let d = 0; d < smoothing.length; d++)
    smoothing[d] = (EDGE_KEEP * EDGE_KEEP) / (EDGE_KEEP * EDGE_KEEP + d * d);

  // Half size: edge-preserving smoothing (lean towards the blur where it agrees with the pixel), then flat colour.
  const soft = (await softPromise).data;
  const h = half.data;
  const colour = Buffer.allocUnsafe(h.length);
  for (let i = 0; i < h.length; i += 3) {
    const r0 = h[i],
      g0 = h[i + 1],
      b0 = h[i + 2];
    const dr = soft[i] - r0,
      dg = soft[i + 1] - g0,
      db = soft[i + 2] - b0;
    const weight = smoothing[(dr < 0 ? -dr : dr) + (dg < 0 ? -dg : dg) + (db < 0 ? -db : db)];
    const r = (r0 + dr * weight) | 0;
    const g = (g0 + dg * weight) | 0;
    const b = (b0 + db * weight) | 0;
    const k = nearest[((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3)] * 3;
    colour[i] = palette[k];
    colour[i + 1] = palette[k + 1];
    colour[i + 2] = palette[k + 2];
  }

  // Full size: the flat colour with the outlines inked over it.
  const { fine, coarse } = await edgesPromise;
  const keepTable = inkTable(3, 6, 0.9);
  const { width, height } = src;
  const out = newRawImage(width, height, 3);
  const o = out.data;
  const halfWidth = half.width;
  const [inkR, inkG, inkB] = INK;
  for (let y = 0, p = 0, i = 0; y < height; y++) {
    const halfRow = (y >> 1) * halfWidth;
    for (let x = 0; x < width; x++, p++, i += 3) {
      const k = (halfRow + (x >> 1)) * 3;
      const keep = keepTable[coarse[p] - fine[p] + 255];
      const dark = 256 - keep;
      o[i] = (colour[k] * keep + inkR * dark) >> 8;
      o[i + 1] = (colour[k + 1] * keep + inkG * dark) >> 8;
      o[i + 2] = (colour[k + 2] * keep + inkB * dark) >> 8;
    }
  }
  return out;
}
