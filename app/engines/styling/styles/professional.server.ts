import { STYLED_MAX_EDGE } from "~/engines/styling/ai-disclosure.server";
import { blurredHalfOf } from "~/engines/styling/image-planes.server";
import { luma } from "~/engines/styling/pixel-words.server";
import {
  decodeRgb,
  inBackground,
  newRawImage,
  pictureOf,
  type RawImage,
} from "~/engines/styling/raw-image.server";

/** The headshot keeps this share of the picture's shorter side. */
const CROP = 0.78;
/**
 * The framing is found on a copy this big (long edge, px): attention is costly
 * on big images, and libvips scores it on a 32 px map whatever the size.
 */
const FRAMING_EDGE = 64;
const CLARITY = 0.55;
const SATURATION = 0.92;
/** Edges fall off gently towards a cool studio grey. */
const BACKDROP = [46, 50, 58];

/**
 * A small copy of the picture for framing (long edge FRAMING_EDGE px), each
 * pixel the mean of a 4x4 grid of samples spread over its block.
 */
function framingCopy(full: RawImage, width: number, height: number): RawImage {
  const scale = Math.min(1, FRAMING_EDGE / Math.max(width, height));
  const smallWidth = Math.max(1, Math.round(width * scale));
  const smallHeight = Math.max(1, Math.round(height * scale));
  const samples = 4;
  const columns = new Int32Array(smallWidth * samples);
  for (let k = 0; k < columns.length; k++) {
    columns[k] = Math.min(width - 1, Math.floor(((k + 0.5) * width) / columns.length)) * 3;
  }
  const data = Buffer.alloc(smallWidth * smallHeight * 3);
  const s = full.data;
  const stride = full.width * 3;
  for (let y = 0, o = 0; y < smallHeight; y++) {
    for (let x = 0; x < smallWidth; x++, o += 3) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = 0; sy < samples; sy++) {
        const row =
          Math.min(
            height - 1,
            Math.floor(((y * samples + sy + 0.5) * height) / (smallHeight * samples)),
          ) * stride;
        for (let sx = 0; sx < samples; sx++) {
          const i = row + columns[x * samples + sx];
          r += s[i];
          g += s[i + 1];
          b += s[i + 2];
        }
      }
      const n = samples * samples;
      data[o] = Math.round(r / n);
      data[o + 1] = Math.round(g / n);
      data[o + 2] = Math.round(b / n);
    }
  }
  return { data, width: smallWidth, height: smallHeight, channels: 3 };
}

/**
 * The most interesting point of the picture by sharp's attention strategy
 * (skin tones, saturation, detail), found on a small copy (libvips scores
 * attention on a 32 px map whatever the size), as a share of the picture's
 * width and height. Asked for any crop narrower than the copy, sharp scores
 * the whole copy and reports where the score peaks.
 */
async function attentionPoint(small: RawImage): Promise<[number, number]> {
  const width = small.width - (small.padding ?? 0);
  const { height } = small;
  const cropWidth = Math.max(1, Math.round(Math.min(width, height) * CROP));
  const { info } = await pictureOf(small)
    .resize(cropWidth, height, { fit: "cover", position: "attention" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.attentionX === undefined || info.attentionY === undefined) return [0.5, 0.5];
  return [info.attentionX / width, info.attentionY / height];
}

/** Whether the file's format decodes straight to a small size cheaply (JPEG, WebP). */
function decodesSmall(input: Buffer): boolean {
  const jpeg = input[0] === 0xff && input[1] === 0xd8 && input[2] === 0xff;
  const webp =
    input.toString("latin1", 0, 4) === "RIFF" && input.toString("latin1", 8, 12) === "WEBP";
  return jpeg || webp;
}

/** The headshot's tone curve with clarity, as tables (see renderProfessional). */
interface ToneTables {
  detail: Int32Array;
  lumaPart: Float32Array;
  channelPart: Float32Array;
}

/**
 * One pixel of the headshot, from `s` at `j` to `o` at `i`: its tone through
 * the curve with clarity added (by its brightness against `around`), colour
 * slightly calmed, a touch of warmth, then the vignette (`keep` of it, and
 * the backdrop's share `towards`).
 */
function tonePixel(
  o: Uint8ClampedArray,
  i: number,
  s: Buffer,
  j: number,
  around: number,
  keep: number,
  towardsR: number,
  towardsG: number,
  towardsB: number,
  { detail, lumaPart, channelPart }: ToneTables,
) {
  const r = s[j];
  const g = s[j + 1];
  const b = s[j + 2];
  const l = luma(r, g, b);
  const d = detail[l - around + 255];
  const lumaOut = lumaPart[l + d];
  o[i] = (lumaOut + channelPart[r + d] + 5) * keep + towardsR;
  o[i + 1] = (lumaOut + channelPart[g + d] + 1) * keep + towardsG;
  o[i + 2] = (lumaOut + channelPart[b + d] - 6) * keep + towardsB;
}

/** The even whole number nearest to `value` within 0-`max`. */
function evenWithin(value: number, max: number): number {
  const clamped = Math.round(Math.min(max, Math.max(0, value)));
  return clamped - (clamped & 1);
}

/**
 * The headshot's pixels: the square `box` of `full`, toned (see tonePixel)
 * against `surroundings` (the picture at half size, blurred) and vignetted.
 */
function toneHeadshot(
  full: RawImage,
  { left, top, side }: { left: number; top: number; side: number },
  surroundings: RawImage,
  tables: ToneTables,
): RawImage {
  const s = full.data;
  const fullStride = full.width * 3;
  // The surroundings and the vignette change slowly: both are taken once per 2x2 block
  // (the surroundings are half size anyway; the vignette at the block's centre).
  const reach = 1 / ((side / 2) * Math.SQRT2);
  const halfSide = (side + 1) >> 1;
  const columnDistance = new Float32Array(halfSide);
  for (let hx = 0; hx < halfSide; hx++)
    columnDistance[hx] = ((2 * hx + 0.5 - side / 2) * reach) ** 2;

  const around3 = surroundings.data;
  const halfStride = surroundings.width * 3;
  const out = newRawImage(side, side, 3);
  const o = new Uint8ClampedArray(out.data.buffer, out.data.byteOffset, out.data.length);
  const [br, bg, bb] = BACKDROP;
  const stride = side * 3;
  for (let y = 0; y < side; y += 2) {
    const rowDistance = ((y + 0.5 - side * 0.42) * reach) ** 2;
    const below = y + 1 < side ? 1 : 0;
    const sourceRow = (top + y) * fullStride;
    for (
      let hx = 0, x = 0, k = ((top + y) >> 1) * halfStride + (left >> 1) * 3;
      hx < halfSide;
      hx++, x += 2, k += 3
    ) {
      const around = luma(around3[k], around3[k + 1], around3[k + 2]);
      const r2 = columnDistance[hx] + rowDistance;
      const vignette = r2 < 0.22 ? 0 : r2 > 0.845 ? 0.5 : (r2 - 0.22) * 0.8;
      const keep = 1 - vignette;
      const towardsR = br * vignette;
      const towardsG = bg * vignette;
      const towardsB = bb * vignette;
      // The block's four pixels (at the edges of an odd side a block has one column or
      // row, done twice).
      const right = x + 1 < side ? 3 : 0;
      const j = sourceRow + (left + x) * 3;
      const i = y * stride + x * 3;
      const jBelow = j + below * fullStride;
      const iBelow = i + below * stride;
      tonePixel(o, i, s, j, around, keep, towardsR, towardsG, towardsB, tables);
      tonePixel(o, i + right, s, j + right, around, keep, towardsR, towardsG, towardsB, tables);
      tonePixel(o, iBelow, s, jBelow, around, keep, towardsR, towardsG, towardsB, tables);
      tonePixel(
        o,
        iBelow + right,
        s,
        jBelow + right,
        around,
        keep,
        towardsR,
        towardsG,
        towardsB,
        tables,
      );
    }
  }
  return out;
}

/**
 * Professional: a square headshot framed around the most interesting region
 * (sharp's attention strategy: skin tones, saturation, detail), auto levels
 * and a gentle tone curve, clarity (local contrast from a wide blur), a touch
 * of warmth, and a soft studio vignette.
 */
export async function renderProfessional(input: Buffer): Promise<RawImage> {
  // Decode big enough that the crop still has STYLED_MAX_EDGE pixels when possible. The
  // framing is found on a small copy: decoded straight from the file alongside, when its
  // format does that cheaply, else made from the full decode.
  const fullPromise = decodeRgb(input, Math.ceil(STYLED_MAX_EDGE / CROP), "outside");
  const framingPromise = decodesSmall(input)
    ? inBackground(decodeRgb(input, FRAMING_EDGE).then(attentionPoint))
    : undefined;
  const full = await fullPromise;
  const width = full.width - (full.padding ?? 0);
  const { height } = full;
  const attention =
    framingPromise ?? inBackground(attentionPoint(framingCopy(full, width, height)));
  // Clarity compares each pixel's brightness with its surroundings': the picture at half size, blurred.
  const surroundingsPromise = inBackground(blurredHalfOf(full, 3));

  // The headshot: a square centred on the attention point, inside the picture, at even
  // coordinates so that it lines up with the half-size surroundings. Never enlarged: its
  // side is at most STYLED_MAX_EDGE by the decode size.
  const side = Math.min(STYLED_MAX_EDGE, Math.max(1, Math.round(Math.min(width, height) * CROP)));
  const [across, down] = await attention;
  const left = evenWithin(across * width - side / 2, width - side);
  const top = evenWithin(down * height - side / 2, height - side);

  // Auto levels from the headshot's brightness histogram (one pixel of each 2x2 block,
  // 0.5% clipped at each end), then a gentle S-curve.
  const histogram = new Uint32Array(256);
  const s = full.data;
  const fullStride = full.width * 3;
  let counted = 0;
  for (let y = top; y < top + side; y += 2) {
    for (let x = left, i = y * fullStride + left * 3; x < left + side; x += 2, i += 6, counted++) {
      histogram[luma(s[i], s[i + 1], s[i + 2])]++;
    }
  }
  const clip = counted * 0.005;
  let low = 0;
  for (let sum = 0; low < 255 && (sum += histogram[low]) < clip;) low++;
  let high = 255;
  for (let sum = 0; high > 0 && (sum += histogram[high]) < clip;) high--;
  const range = Math.max(32, high - low);
  // By value + 128 (clarity may push a value past either end): the curve's share of a
  // pixel's brightness and of each channel.
  const lumaPart = new Float32Array(512);
  const channelPart = new Float32Array(512);
  for (let v = 0; v < 512; v++) {
    const t = Math.min(1, Math.max(0, (v - 128 - low) / range));
    const tone = 255 * (t + 0.35 * t * (1 - t) * (2 * t - 1) + 0.05 * Math.sin(Math.PI * t));
    lumaPart[v] = tone * (1 - SATURATION);
    channelPart[v] = tone * SATURATION;
  }
  // Clarity by brightness minus surroundings (+255): the offset into those tables,
  // capped at +-120 levels, which keeps every index inside them.
  const detail = new Int32Array(511);
  for (let d = -255; d <= 255; d++) {
    detail[d + 255] = Math.floor(Math.min(120, Math.max(-120, d * CLARITY)) + 128.5);
  }
  const tables: ToneTables = { detail, lumaPart, channelPart };

  return toneHeadshot(full, { left, top, side }, await surroundingsPromise, tables);
}
