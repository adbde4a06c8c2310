import { STYLED_MAX_EDGE } from "../ai-disclosure.server";
import { brightPass, halfOf, lumaOf } from "../image-planes.server";
import { smoothingWeights } from "../edge-preserving.server";
import { edgeBands, inkOver, inkTable } from "../line-art.server";
import { blur, decodeRgb, inBackground, type RawImage } from "../raw-image.server";

/** Cel shading: each pixel's brightness becomes one of three tones. */
const TONE_LIMITS = [58, 150];
const TONES = [0.24, 0.72, 1];
const SATURATION = 1.7;
const EDGE_KEEP = 30;
const INK = [40, 28, 60];

/**
 * Anime: smoothed, then cel-shaded in three flat tones with a bright,
 * saturated palette, a soft bloom around the highlights, and clean thin line
 * art. Colour and bloom are worked at half size; the lines at full size.
 */
export async function renderAnime(input: Buffer): Promise<RawImage> {
  const src = await decodeRgb(input, STYLED_MAX_EDGE);
  // libvips halves the image while JavaScript computes the brightness plane for the outlines.
  const halfPromise = inBackground(halfOf(src));
  const edgesPromise = inBackground(edgeBands(lumaOf(src), 1.1));
  const half = await halfPromise;
  const softPromise = inBackground(blur(half, 1.5));
  const bloomPromise = inBackground(blur(brightPass(half, 165, 2.6), 8));

  const smoothing = smoothingWeights(EDGE_KEEP);
  const [low, high] = TONE_LIMITS;
  const [shadow, mid, light] = TONES.map((tone) => tone * 250);

  const [soft, bloom] = await Promise.all([softPromise, bloomPromise]);
  const h = half.data;
  const s = soft.data;
  const glowPlane = bloom.data;
  const colour = new Uint8ClampedArray(h.length);
  for (let p = 0, i = 0; i < h.length; p++, i += 3) {
    // Edge-preserving smoothing.
    const r0 = h[i],
      g0 = h[i + 1],
      b0 = h[i + 2];
    const dr = s[i] - r0,
      dg = s[i + 1] - g0,
      db = s[i + 2] - b0;
    const weight = smoothing[(dr < 0 ? -dr : dr) + (dg < 0 ? -dg : dg) + (db < 0 ? -db : db)];
    const r = r0 + dr * weight;
    const g = g0 + dg * weight;
    const b = b0 + db * weight;

    // Hue kept, saturation boosted (less in the dark, where hues are noise), brightness snapped to a cel tone.
    const max = Math.max(r, g, b, 1);
    const saturation = 1 - Math.min(r, g, b) / max;
    const lit = max < 40 ? 0 : max > 110 ? 1 : (max - 40) / 70;
    const boosted = Math.min(0.85, saturation * (1 + (SATURATION - 1) * lit)) * (0.4 + 0.6 * lit);
    const stretch = saturation > 0.001 ? boosted / saturation : 0;
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    const tone = (y < low ? shadow : y < high ? mid : light) / max;
    const nr = tone * (max - (max - r) * stretch);
    const ng = tone * (max - (max - g) * stretch);
    const nb = tone * (max - (max - b) * stretch);

    // Soft bloom: a screen blend, slightly pink.
    const glow = (255 - glowPlane[p] * 0.8) / 255;
    colour[i] = 255 - (255 - nr) * glow;
    colour[i + 1] = 255 - (255 - ng) * (1 - (1 - glow) * 0.9);
    colour[i + 2] = 255 - (255 - nb) * (1 - (1 - glow) * 0.95);
  }

  // Full size: the cel colour with the line art over it.
  return inkOver(colour, half.width, src, await edgesPromise, inkTable(3, 5, 0.85), INK);
}
