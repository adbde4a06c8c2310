import { STYLED_MAX_EDGE } from "../ai-disclosure.server";
import { brightPass, halfOf } from "../image-planes.server";
import { blur, decodeRgb, inBackground, newRawImage, type RawImage } from "../raw-image.server";
import { seededRandom } from "../seeded-random.server";
import { drawSparkles } from "../sparkles.server";

/** The grade's gradient map, from shadows to highlights: indigo, violet, teal, gold, warm white. */
const GRADIENT: Array<[number, [number, number, number]]> = [
  [0, [12, 4, 40]],
  [0.28, [74, 18, 112]],
  [0.52, [16, 118, 146]],
  [0.78, [250, 184, 96]],
  [1, [255, 248, 226]],
];
/** How much of the gradient map replaces the (saturated) original colour. */
const GRADE_MIX = 0.5;
const SATURATION = 1.5;
/** The vignette fades to a deep violet. */
const VIGNETTE = [30, 6, 52];

function gradientTable(): Uint8ClampedArray {
  const table = new Uint8ClampedArray(256 * 3);
  for (let v = 0; v < 256; v++) {
    const t = v / 255;
    let k = 0;
    while (k < GRADIENT.length - 2 && t > GRADIENT[k + 1][0]) k++;
    const [t0, c0] = GRADIENT[k];
    const [t1, c1] = GRADIENT[k + 1];
    const f = Math.min(1, Math.max(0, (t - t0) / (t1 - t0)));
    const smooth = f * f * (3 - 2 * f);
    for (let c = 0; c < 3; c++) table[v * 3 + c] = c0[c] + (c1[c] - c0[c]) * smooth;
  }
  return table;
}

/**
 * Fantasy: a dramatic colour grade (a gradient map from indigo through teal
 * to gold, over boosted colour and contrast), a golden glow around the light,
 * a deep violet vignette, and sparkles placed by a generator seeded from the
 * picture itself. The glow is worked at half size; the grade at full size.
 */
export async function renderFantasy(input: Buffer): Promise<RawImage> {
  const src = await decodeRgb(input, STYLED_MAX_EDGE);
  const half = await halfOf(src);
  const glowPromise = inBackground(blur(brightPass(half, 110, 1.8), 7));

  // Contrast (an S-curve) and the gradient map, as tables.
  const curve = new Float32Array(256);
  for (let v = 0; v < 256; v++) {
    const t = v / 255;
    curve[v] = 255 * (t < 0.5 ? 2 * t * t : 1 - 2 * (1 - t) * (1 - t)) * 0.6 + v * 0.4;
  }
  const gradient = gradientTable();
  const { width, height } = src;
  // The vignette's distance from the centre, split into per-column and per-row parts.
  const reach = 1 / Math.hypot(width / 2, height / 2);
  const columnDistance = new Float32Array(width);
  for (let x = 0; x < width; x++) columnDistance[x] = ((x - width / 2) * reach) ** 2;

  const glow = (await glowPromise).data;
  const out = newRawImage(width, height, 3);
  const o = new Uint8ClampedArray(out.data.buffer, out.data.byteOffset, out.data.length);
  const s = src.data;
  const halfWidth = half.width;
  const keepMap = 1 - GRADE_MIX;
  const [vr, vg, vb] = VIGNETTE;
  for (let y = 0, i = 0; y < height; y++) {
    const rowDistance = ((y - height * 0.42) * reach) ** 2;
    const halfRow = (y >> 1) * halfWidth;
    for (let x = 0; x < width; x++, i += 3) {
      const r = s[i],
        g = s[i + 1],
        b = s[i + 2];
      const luma = (77 * r + 150 * g + 29 * b + 128) >> 8;
      const y0 = curve[luma];
      const m = luma * 3;
      // Contrast and colour, then the gradient map mixed in.
      let nr = (y0 + (curve[r] - y0) * SATURATION) * keepMap + gradient[m] * GRADE_MIX;
      let ng = (y0 + (curve[g] - y0) * SATURATION) * keepMap + gradient[m + 1] * GRADE_MIX;
      let nb = (y0 + (curve[b] - y0) * SATURATION) * keepMap + gradient[m + 2] * GRADE_MIX;
      // Golden glow (screen blend).
      const light = glow[halfRow + (x >> 1)] * (0.85 / 255);
      nr = 255 - (255 - nr) * (1 - light);
      ng = 255 - (255 - ng) * (1 - light * 0.82);
      nb = 255 - (255 - nb) * (1 - light * 0.5);
      // Vignette.
      const r2 = columnDistance[x] + rowDistance;
      const vignette = r2 < 0.1 ? 0 : r2 > 0.6625 ? 0.9 : (r2 - 0.1) * 1.6;
      o[i] = nr + (vr - nr) * vignette;
      o[i + 1] = ng + (vg - ng) * vignette;
      o[i + 2] = nb + (vb - nb) * vignette;
    }
  }

  drawSparkles(out, seededRandom(half.data), Math.round((width * height) / 6000));
  return out;
}
