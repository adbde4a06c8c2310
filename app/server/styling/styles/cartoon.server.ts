import { STYLED_MAX_EDGE } from "../ai-disclosure.server";
import { halfOf, lumaOf } from "../image-planes.server";
import { smoothingWeights } from "../edge-preserving.server";
import { edgeBands, inkOver, inkTable } from "../line-art.server";
import { medianCutPalette, nearestColourTable } from "../palette.server";
import { blur, decodeRgb, inBackground, type RawImage } from "../raw-image.server";

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
  const smoothing = smoothingWeights(EDGE_KEEP);

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
  return inkOver(colour, half.width, src, await edgesPromise, inkTable(3, 6, 0.9), INK);
}
