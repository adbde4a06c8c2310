import { STYLED_MAX_EDGE } from "../ai-disclosure.server";
import { halfOf, lumaOf } from "../image-planes.server";
import { blur, decodeRgb, fromRaw, inBackground, type RawImage } from "../raw-image.server";

/** The headshot keeps this share of the picture's shorter side. */
const CROP = 0.78;
/** The framing is found on a copy this big (long edge, px): attention is costly on big images. */
const FRAMING_EDGE = 256;
const CLARITY = 0.55;
const SATURATION = 0.92;
/** Edges fall off gently towards a cool studio grey. */
const BACKDROP = [46, 50, 58];

/**
 * Professional: a square headshot framed around the most interesting region
 * (sharp's attention strategy: skin tones, saturation, detail), auto levels
 * and a gentle tone curve, clarity (local contrast from a wide blur), a touch
 * of warmth, and a soft studio vignette.
 */
export async function renderProfessional(input: Buffer): Promise<RawImage> {
  // Decode big enough that the crop still has STYLED_MAX_EDGE pixels when possible,
  // and a small copy to find the framing on.
  const full = await decodeRgb(input, Math.ceil(STYLED_MAX_EDGE / CROP), "outside");
  const { width, height } = full;
  const scale = Math.min(1, FRAMING_EDGE / Math.max(width, height));
  const smallWidth = Math.max(1, Math.round(width * scale));
  const smallHeight = Math.max(1, Math.round(height * scale));
  const small: RawImage = {
    data: await fromRaw(full).resize(smallWidth, smallHeight, { fit: "fill" }).raw().toBuffer(),
    width: smallWidth,
    height: smallHeight,
    channels: 3,
  };

  // Headshot framing with sharp's attention strategy, one axis at a time (each crop
  // keeps the window with the most skin tone, saturation and detail): first the
  // width down to the square's side at full height, then the height.
  const smallSide = Math.max(1, Math.round(Math.min(small.width, small.height) * CROP));
  const column = await fromRaw(small)
    .resize(smallSide, small.height, { fit: "cover", position: "attention" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const square = await fromRaw({
    data: column.data,
    width: smallSide,
    height: small.height,
    channels: 3,
  })
    .resize(smallSide, smallSide, { fit: "cover", position: "attention" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const side = Math.max(1, Math.round(Math.min(width, height) * CROP));
  const left = Math.abs(column.info.cropOffsetLeft ?? 0) * (width / small.width);
  const top = Math.abs(square.info.cropOffsetTop ?? 0) * (height / small.height);
  const size = Math.min(STYLED_MAX_EDGE, side);
  const framed = await fromRaw(full)
    .extract({
      left: Math.round(Math.min(width - side, Math.max(0, left))),
      top: Math.round(Math.min(height - side, Math.max(0, top))),
      width: side,
      height: side,
    })
    .resize(size, size)
    .raw()
    .toBuffer();
  const headshot: RawImage = { data: framed, width: size, height: size, channels: 3 };

  // Clarity compares each pixel with its surroundings: brightness blurred at half size.
  const halfPromise = inBackground(halfOf(headshot));
  const luma = lumaOf(headshot);
  const half = await halfPromise;
  const halfLuma = lumaOf(half);
  const surroundingsPromise = inBackground(blur(halfLuma, 3));

  // Auto levels from the brightness histogram (0.5% clipped at each end), then a gentle S-curve.
  const histogram = new Uint32Array(256);
  const hl = halfLuma.data;
  for (let p = 0; p < hl.length; p++) histogram[hl[p]]++;
  const clip = hl.length * 0.005;
  let low = 0;
  for (let sum = 0; low < 255 && (sum += histogram[low]) < clip;) low++;
  let high = 255;
  for (let sum = 0; high > 0 && (sum += histogram[high]) < clip;) high--;
  const range = Math.max(32, high - low);
  // Indexed by value + 128, so clarity may push a value past either end.
  const tone = new Float32Array(512);
  for (let v = 0; v < 512; v++) {
    const t = Math.min(1, Math.max(0, (v - 128 - low) / range));
    tone[v] = 255 * (t + 0.35 * t * (1 - t) * (2 * t - 1) + 0.05 * Math.sin(Math.PI * t));
  }
  const reach = 1 / ((size / 2) * Math.SQRT2);
  const columnDistance = new Float32Array(size);
  for (let x = 0; x < size; x++) columnDistance[x] = ((x - size / 2) * reach) ** 2;

  const surroundings = (await surroundingsPromise).data;
  const out = Buffer.allocUnsafe(headshot.data.length);
  const o = new Uint8ClampedArray(out.buffer, out.byteOffset, out.length);
  const s = headshot.data;
  const l = luma.data;
  const halfWidth = half.width;
  const [br, bg, bb] = BACKDROP;
  for (let y = 0, p = 0, i = 0; y < size; y++) {
    const rowDistance = ((y - size * 0.42) * reach) ** 2;
    const halfRow = (y >> 1) * halfWidth;
    for (let x = 0; x < size; x++, p++, i += 3) {
      // Tone through the curve with clarity added, colour slightly calmed, then warmth and the vignette.
      // Clarity is capped at +-120 levels, which keeps every index below inside the table.
      const contrast = (l[p] - surroundings[halfRow + (x >> 1)]) * CLARITY;
      const detail = (contrast > 120 ? 120 : contrast < -120 ? -120 : contrast) + 128.5;
      const lumaOut = tone[(l[p] + detail) | 0];
      const r = lumaOut + (tone[(s[i] + detail) | 0] - lumaOut) * SATURATION + 5;
      const g = lumaOut + (tone[(s[i + 1] + detail) | 0] - lumaOut) * SATURATION + 1;
      const b = lumaOut + (tone[(s[i + 2] + detail) | 0] - lumaOut) * SATURATION - 6;
      const r2 = columnDistance[x] + rowDistance;
      const vignette = r2 < 0.22 ? 0 : r2 > 0.845 ? 0.5 : (r2 - 0.22) * 0.8;
      o[i] = r + (br - r) * vignette;
      o[i + 1] = g + (bg - g) * vignette;
      o[i + 2] = b + (bb - b) * vignette;
    }
  }
  return { data: out, width: size, height: size, channels: 3 };
}
