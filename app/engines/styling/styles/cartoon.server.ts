import { STYLED_MAX_EDGE } from "~/engines/styling/ai-disclosure.server";
import { blurredHalfOf, lumaOf } from "~/engines/styling/image-planes.server";
import { smoothingWeights } from "~/engines/styling/edge-preserving.server";
import { edgeBands, inkOver, inkTable } from "~/engines/styling/line-art.server";
import {
  medianCutPalette,
  nearestColourTable,
  nearestEntry,
  UNKNOWN_ENTRY,
  type Palette,
} from "~/engines/styling/palette.server";
import { newPackedPlane } from "~/engines/styling/pixel-words.server";
import { decodeRgb, inBackground, type RawImage } from "~/engines/styling/raw-image.server";

const PALETTE_SIZE = 12;
const SATURATION = 1.35;
/** Colour differences (sum over RGB) around this size count as edges the smoothing keeps. */
const EDGE_KEEP = 36;
const INK = [12, 10, 24];

/**
 * The half-size pass: edge-preserving smoothing (lean towards the blur where
 * it agrees with the pixel), then the nearest flat colour, one packed colour
 * per pixel (see pixel-words).
 */
function flatColours(src: RawImage, soft: RawImage, picked: Palette): Uint32Array {
  // The palette made more vivid, packed.
  const vivid = new Uint8ClampedArray(3);
  const palette = new Uint32Array(picked.length / 3);
  for (let k = 0; k < palette.length; k++) {
    const [r, g, b] = picked.subarray(k * 3, k * 3 + 3);
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    vivid[0] = y + (r - y) * SATURATION + 6;
    vivid[1] = y + (g - y) * SATURATION + 6;
    vivid[2] = y + (b - y) * SATURATION + 6;
    palette[k] = vivid[0] | (vivid[1] << 8) | (vivid[2] << 16);
  }
  const nearest = nearestColourTable();
  const smoothing = smoothingWeights(EDGE_KEEP);

  // Each half-size pixel: one pixel of its 2x2 block, leaning towards the blurred half-size copy.
  const colour = newPackedPlane(soft.width * soft.height);
  const h = src.data;
  const s = soft.data;
  const sourceRow = src.width * 3 * 2;
  for (let y = 0, p = 0, k = 0; y < soft.height; y++) {
    for (let x = 0, i = y * sourceRow; x < soft.width; x++, p++, i += 6, k += 3) {
      const r0 = h[i],
        g0 = h[i + 1],
        b0 = h[i + 2];
      const dr = s[k] - r0,
        dg = s[k + 1] - g0,
        db = s[k + 2] - b0;
      const weight = smoothing[Math.abs(dr) + Math.abs(dg) + Math.abs(db)];
      const r = (r0 + dr * weight) | 0;
      const g = (g0 + dg * weight) | 0;
      const b = (b0 + db * weight) | 0;
      const index = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
      const entry = nearest[index];
      colour[p] = palette[entry === UNKNOWN_ENTRY ? nearestEntry(picked, nearest, index) : entry];
    }
  }
  return colour;
}

/**
 * Cartoon: edge-preserving smoothing (a blur that backs off wherever the
 * picture changes sharply), a handful of flat colours (the picture's own
 * palette by median cut, made more vivid), then bold dark outlines. Colour is
 * worked at half size (it is flat anyway); the outlines at full size.
 */
export async function renderCartoon(input: Buffer): Promise<RawImage> {
  const src = await decodeRgb(input, STYLED_MAX_EDGE);
  // libvips makes the blurred half-size copy while JavaScript computes the brightness plane for the
  // outlines and the palette.
  const softPromise = inBackground(blurredHalfOf(src, 2));
  const edgesPromise = inBackground(edgeBands(lumaOf(src), 2));
  const picked = medianCutPalette(src, PALETTE_SIZE);
  const soft = await softPromise;
  const colour = flatColours(src, soft, picked);
  // Full size: the flat colour with the outlines inked over it.
  return inkOver(colour, soft.width, src, await edgesPromise, inkTable(3, 6, 0.9), INK);
}
