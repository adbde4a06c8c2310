import { STYLED_MAX_EDGE } from "~/engines/styling/ai-disclosure.server";
import { halfBrightPass } from "~/engines/styling/image-planes.server";
import { luma } from "~/engines/styling/pixel-words.server";
import { blur, decodeRgb, newRawImage, type RawImage } from "~/engines/styling/raw-image.server";
import { seededRandom } from "~/engines/styling/seeded-random.server";
import { drawSparkles } from "~/engines/styling/sparkles.server";

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

/** The grade's tables: channel c of a pixel of brightness l becomes base[c][l] + colourPart[value of c]. */
interface GradeTables {
  baseR: Float32Array;
  baseG: Float32Array;
  baseB: Float32Array;
  colourPart: Float32Array;
}

/**
 * One pixel, in place at `i` of `s` into `o`: the grade (see GradeTables),
 * then the glow and the vignette as a gain and an offset per channel.
 */
function gradePixel(
  o: Uint8ClampedArray,
  s: Buffer,
  i: number,
  gainR: number,
  gainG: number,
  gainB: number,
  offsetR: number,
  offsetG: number,
  offsetB: number,
  { baseR, baseG, baseB, colourPart }: GradeTables,
) {
  const r = s[i];
  const g = s[i + 1];
  const b = s[i + 2];
  const l = luma(r, g, b);
  o[i] = (baseR[l] + colourPart[r]) * gainR + offsetR;
  o[i + 1] = (baseG[l] + colourPart[g]) * gainG + offsetG;
  o[i + 2] = (baseB[l] + colourPart[b]) * gainB + offsetB;
}

/**
 * The full-size pass: contrast (an S-curve) and colour, the gradient map
 * mixed in, the golden glow (a screen blend of the half-size `glow` plane)
 * and the vignette. The output keeps the input's padding columns.
 */
function grade(src: RawImage, glow: RawImage): RawImage {
  // Contrast, colour and the gradient map, as tables.
  const curve = new Float32Array(256);
  for (let v = 0; v < 256; v++) {
    const t = v / 255;
    curve[v] = 255 * (t < 0.5 ? 2 * t * t : 1 - 2 * (1 - t) * (1 - t)) * 0.6 + v * 0.4;
  }
  const gradient = gradientTable();
  const keepMap = 1 - GRADE_MIX;
  const [baseR, baseG, baseB] = [0, 1, 2].map((c) =>
    curve.map((y0, l) => y0 * (1 - SATURATION) * keepMap + gradient[l * 3 + c] * GRADE_MIX),
  );
  const tables: GradeTables = {
    baseR,
    baseG,
    baseB,
    colourPart: curve.map((v) => v * SATURATION * keepMap),
  };

  const { width, height } = src;
  const pictureWidth = width - (src.padding ?? 0);
  const reach = 1 / Math.hypot(pictureWidth / 2, height / 2);
  // The glow and the vignette change slowly: each is worked out once per 2x2 block (the
  // glow is half size anyway; the vignette at the block's centre), as a gain and an offset
  // per channel. The vignette's distance from the centre is split into column and row parts.
  const halfWidth = glow.width;
  const columnDistance = new Float32Array(halfWidth);
  for (let hx = 0; hx < halfWidth; hx++) {
    columnDistance[hx] = ((2 * hx + 0.5 - pictureWidth / 2) * reach) ** 2;
  }

  const out = newRawImage(width, height, 3);
  out.padding = src.padding;
  const o = new Uint8ClampedArray(out.data.buffer, out.data.byteOffset, out.data.length);
  const s = src.data;
  const g = glow.data;
  const [vr, vg, vb] = VIGNETTE;
  const glowScale = 0.85 / 255;
  const stride = width * 3;
  for (let y = 0; y < height; y += 2) {
    const rowDistance = ((y + 0.5 - height * 0.42) * reach) ** 2;
    const below = y + 1 < height ? stride : 0;
    for (let hx = 0, i = y * stride, k = (y >> 1) * halfWidth; hx < halfWidth; hx++, i += 6, k++) {
      // Golden glow (a screen blend), then the vignette: n * gain + offset.
      const light = g[k] * glowScale;
      const r2 = columnDistance[hx] + rowDistance;
      const vignette = r2 < 0.1 ? 0 : r2 > 0.6625 ? 0.9 : (r2 - 0.1) * 1.6;
      const keep = 1 - vignette;
      const gainR = (1 - light) * keep;
      const gainG = (1 - light * 0.82) * keep;
      const gainB = (1 - light * 0.5) * keep;
      const offsetR = 255 * keep - 255 * gainR + vr * vignette;
      const offsetG = 255 * keep - 255 * gainG + vg * vignette;
      const offsetB = 255 * keep - 255 * gainB + vb * vignette;
      // The block's four pixels (rows are padded to whole groups of four, so x + 1 is always
      // there; at the bottom of an odd height the last row is done twice).
      gradePixel(o, s, i, gainR, gainG, gainB, offsetR, offsetG, offsetB, tables);
      gradePixel(o, s, i + 3, gainR, gainG, gainB, offsetR, offsetG, offsetB, tables);
      gradePixel(o, s, i + below, gainR, gainG, gainB, offsetR, offsetG, offsetB, tables);
      gradePixel(o, s, i + below + 3, gainR, gainG, gainB, offsetR, offsetG, offsetB, tables);
    }
  }
  return out;
}

/**
 * Fantasy: a dramatic colour grade (a gradient map from indigo through teal
 * to gold, over boosted colour and contrast), a golden glow around the light,
 * a deep violet vignette, and sparkles placed by a generator seeded from the
 * picture itself. The glow is worked at half size; the grade at full size.
 */
export async function renderFantasy(input: Buffer): Promise<RawImage> {
  const src = await decodeRgb(input, STYLED_MAX_EDGE);
  const glow = await blur(halfBrightPass(src, 110, 1.8), 7);
  const out = grade(src, glow);
  // The sparkles' generator is seeded from every eighth row of the picture.
  const rows: Buffer[] = [];
  const rowBytes = src.width * 3;
  for (let y = 0; y < src.height; y += 8)
    rows.push(src.data.subarray(y * rowBytes, (y + 1) * rowBytes));
  drawSparkles(out, seededRandom(...rows), Math.round((out.width * out.height) / 6000));
  return out;
}
