import { STYLED_MAX_EDGE } from "~/engines/styling/ai-disclosure.server";
import { blurredHalfOf, halfBrightPass, lumaOf } from "~/engines/styling/image-planes.server";
import { smoothingWeights } from "~/engines/styling/edge-preserving.server";
import { edgeBands, inkOver, inkTable } from "~/engines/styling/line-art.server";
import { newPackedPlane } from "~/engines/styling/pixel-words.server";
import { blur, decodeRgb, inBackground, type RawImage } from "~/engines/styling/raw-image.server";

/** Cel shading: each pixel's brightness becomes one of three tones. */
const TONE_LIMITS = [58, 150];
const TONES = [0.24, 0.72, 1];
const SATURATION = 1.7;
const EDGE_KEEP = 30;
const INK = [40, 28, 60];

/** Cel colours are looked up by colour at 6 bits per channel. */
const CEL_BITS = 6;
/** Marks a cel colour not worked out yet (packed colours never have their top byte set). */
const UNKNOWN = 0xffffffff;

/**
 * From colour quantised to CEL_BITS per channel to its cel colour, all
 * UNKNOWN at first. The answers depend on nothing but the colour, so the
 * table is kept for the life of the process (1 MB) and fills up as pictures
 * use colours.
 */
let celTable: Uint32Array | undefined;

/** The table index of a colour. */
function celIndex(r: number, g: number, b: number): number {
  const shift = 8 - CEL_BITS;
  return ((r >> shift) << (2 * CEL_BITS)) | ((g >> shift) << CEL_BITS) | (b >> shift);
}

/** A colour channel rounded and clamped to 0-255. */
function channel(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : (v + 0.5) | 0;
}

/**
 * Works out, stores and returns the cel colour (packed) of a table index:
 * hue kept, saturation boosted (less in the dark, where hues are noise),
 * brightness snapped to a cel tone. Worked out from the middle of the index's
 * bin, so the answer never depends on the order of the pixels.
 */
function celColour(table: Uint32Array, index: number): number {
  const shift = 8 - CEL_BITS;
  const bin = (1 << CEL_BITS) - 1;
  const centre = (1 << shift) / 2 - 0.5;
  const r = (index >> (2 * CEL_BITS)) * (1 << shift) + centre;
  const g = ((index >> CEL_BITS) & bin) * (1 << shift) + centre;
  const b = (index & bin) * (1 << shift) + centre;
  const [low, high] = TONE_LIMITS;
  const max = Math.max(r, g, b, 1);
  const saturation = 1 - Math.min(r, g, b) / max;
  const lit = max < 40 ? 0 : max > 110 ? 1 : (max - 40) / 70;
  const boosted = Math.min(0.85, saturation * (1 + (SATURATION - 1) * lit)) * (0.4 + 0.6 * lit);
  const stretch = saturation > 0.001 ? boosted / saturation : 0;
  const y = 0.299 * r + 0.587 * g + 0.114 * b;
  const tone = ((y < low ? TONES[0] : y < high ? TONES[1] : TONES[2]) * 250) / max;
  const packed =
    channel(tone * (max - (max - r) * stretch)) |
    (channel(tone * (max - (max - g) * stretch)) << 8) |
    (channel(tone * (max - (max - b) * stretch)) << 16);
  table[index] = packed;
  return packed;
}

/**
 * The half-size pass, one packed colour per pixel (see pixel-words):
 * edge-preserving smoothing, the cel colour, and the bloom (a screen blend,
 * slightly pink).
 */
function celColours(src: RawImage, soft: RawImage, bloom: RawImage): Uint32Array {
  const smoothing = smoothingWeights(EDGE_KEEP);
  celTable ??= new Uint32Array(1 << (3 * CEL_BITS)).fill(UNKNOWN);
  const cel = celTable;
  // The bloom's screen blend, as tables by the bloom level.
  const glowR = new Float32Array(256);
  const glowG = new Float32Array(256);
  const glowB = new Float32Array(256);
  for (let v = 0; v < 256; v++) {
    const glow = (255 - v * 0.8) / 255;
    glowR[v] = glow;
    glowG[v] = 1 - (1 - glow) * 0.9;
    glowB[v] = 1 - (1 - glow) * 0.95;
  }

  // Each half-size pixel: one pixel of its 2x2 block, leaning towards the blurred half-size copy.
  const colour = newPackedPlane(soft.width * soft.height);
  const h = src.data;
  const s = soft.data;
  const glowPlane = bloom.data;
  const sourceRow = src.width * 3 * 2;
  for (let y = 0, p = 0, k = 0; y < soft.height; y++) {
    for (let x = 0, i = y * sourceRow; x < soft.width; x++, p++, i += 6, k += 3) {
      // Edge-preserving smoothing.
      const r0 = h[i],
        g0 = h[i + 1],
        b0 = h[i + 2];
      const dr = s[k] - r0,
        dg = s[k + 1] - g0,
        db = s[k + 2] - b0;
      const weight = smoothing[Math.abs(dr) + Math.abs(dg) + Math.abs(db)];
      const index = celIndex(
        (r0 + dr * weight) | 0,
        (g0 + dg * weight) | 0,
        (b0 + db * weight) | 0,
      );
      const known = cel[index];
      const packed = known === UNKNOWN ? celColour(cel, index) : known;

      // Soft bloom: a screen blend, slightly pink (each channel stays within its value and 255).
      const level = glowPlane[p];
      if (level === 0) {
        colour[p] = packed;
      } else {
        colour[p] =
          (255.5 - (255 - (packed & 255)) * glowR[level]) |
          0 |
          (((255.5 - (255 - ((packed >> 8) & 255)) * glowG[level]) | 0) << 8) |
          (((255.5 - (255 - (packed >> 16)) * glowB[level]) | 0) << 16);
      }
    }
  }
  return colour;
}

/**
 * Anime: smoothed, then cel-shaded in three flat tones with a bright,
 * saturated palette, a soft bloom around the highlights, and clean thin line
 * art. Colour and bloom are worked at half size; the lines at full size.
 */
export async function renderAnime(input: Buffer): Promise<RawImage> {
  const src = await decodeRgb(input, STYLED_MAX_EDGE);
  // libvips makes the blurred half-size copy while JavaScript computes the brightness plane for the
  // outlines, and from it the bloom's source.
  const softPromise = inBackground(blurredHalfOf(src, 1.5));
  const luma = lumaOf(src);
  const edgesPromise = inBackground(edgeBands(luma, 1.1));
  const bloomPromise = inBackground(blur(halfBrightPass(luma, 165, 2.6), 8));
  const soft = await softPromise;
  const colour = celColours(src, soft, await bloomPromise);
  // Full size: the cel colour with the line art over it.
  return inkOver(colour, soft.width, src, await edgesPromise, inkTable(3, 5, 0.85), INK);
}
