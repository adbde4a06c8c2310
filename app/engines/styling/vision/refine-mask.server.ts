import {
  blurred,
  boxFilter,
  newPlane,
  planeOfBytes,
  resampled,
  smoothstep,
  type Plane,
} from "~/engines/styling/vision/planes.server";

/**
 * The person mask at the picture's full size. The segmentation model answers
 * at 256x256; upsampled alone its edge would be a soft, blocky blur that
 * leaves a halo of the old background around the person. A guided filter
 * (He, Sun and Tang) with the picture's brightness as the guide snaps the
 * upsampled mask to the picture's own edges; a gentle contrast curve and a
 * one-pixel feather then give a clean edge. All arithmetic is deterministic.
 */

/** The share of the picture the model must call "person" before its mask is believed. */
const MIN_COVERAGE = 0.02;
const EPSILON = 0.004;

/** Brightness of RGB bytes as a 0-1 plane. */
export function lumaPlane(rgb: Uint8Array, width: number, height: number): Plane {
  const out = newPlane(width, height);
  for (let i = 0, p = 0; p < out.data.length; p++, i += 3) {
    out.data[p] = (0.299 * rgb[i] + 0.587 * rgb[i + 1] + 0.114 * rgb[i + 2]) / 255;
  }
  return out;
}

/** A plane at half size, each value the mean of a 2x2 block (odd edges repeat their last row or column). */
export function halfOf(plane: Plane): Plane {
  const width = (plane.width + 1) >> 1;
  const height = (plane.height + 1) >> 1;
  const out = newPlane(width, height);
  const s = plane.data;
  for (let y = 0, k = 0; y < height; y++) {
    const y0 = 2 * y * plane.width;
    const y1 = Math.min(2 * y + 1, plane.height - 1) * plane.width;
    for (let x = 0; x < width; x++, k++) {
      const x0 = 2 * x;
      const x1 = Math.min(2 * x + 1, plane.width - 1);
      out.data[k] = (s[y0 + x0] + s[y0 + x1] + s[y1 + x0] + s[y1 + x1]) / 4;
    }
  }
  return out;
}

/** A half-size plane read back at full size by bilinear interpolation. */
function doubled(half: Plane, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height);
  const h = half.data;
  const last = half.width - 1;
  for (let y = 0, k = 0; y < height; y++) {
    const fy = Math.min(half.height - 1, Math.max(0, (y - 0.5) / 2));
    const y0 = Math.floor(fy);
    const y1 = Math.min(half.height - 1, y0 + 1);
    const ty = fy - y0;
    const r0 = y0 * half.width;
    const r1 = y1 * half.width;
    for (let x = 0; x < width; x++, k++) {
      const fx = Math.min(last, Math.max(0, (x - 0.5) / 2));
      const x0 = Math.floor(fx);
      const x1 = Math.min(last, x0 + 1);
      const tx = fx - x0;
      const top = h[r0 + x0] + (h[r0 + x1] - h[r0 + x0]) * tx;
      const bottom = h[r1 + x0] + (h[r1 + x1] - h[r1 + x0]) * tx;
      out[k] = top + (bottom - top) * ty;
    }
  }
  return out;
}

/**
 * He et al.'s guided filter of `input` by `guide` (same size), radius
 * `radius`, in its fast form: the linear coefficients are found at half size
 * and applied to the full-size guide, which keeps the guide's fine edges.
 */
export function guidedFilter(guide: Plane, input: Plane, radius: number, epsilon: number): Plane {
  const smallGuide = halfOf(guide);
  const smallInput = halfOf(input);
  const r = Math.max(1, Math.round(radius / 2));
  const n = smallGuide.data.length;
  const I = smallGuide.data;
  const p = smallInput.data;
  const ii = newPlane(smallGuide.width, smallGuide.height);
  const ip = newPlane(smallGuide.width, smallGuide.height);
  for (let k = 0; k < n; k++) {
    ii.data[k] = I[k] * I[k];
    ip.data[k] = I[k] * p[k];
  }
  const meanI = boxFilter(smallGuide, r).data;
  const meanP = boxFilter(smallInput, r).data;
  const corrII = boxFilter(ii, r).data;
  const corrIP = boxFilter(ip, r).data;
  const a = newPlane(smallGuide.width, smallGuide.height);
  const b = newPlane(smallGuide.width, smallGuide.height);
  for (let k = 0; k < n; k++) {
    const varI = corrII[k] - meanI[k] * meanI[k];
    const covIP = corrIP[k] - meanI[k] * meanP[k];
    const ak = covIP / (varI + epsilon);
    a.data[k] = ak;
    b.data[k] = meanP[k] - ak * meanI[k];
  }
  const meanA = doubled(boxFilter(a, r), guide.width, guide.height);
  const meanB = doubled(boxFilter(b, r), guide.width, guide.height);
  const out = newPlane(guide.width, guide.height);
  const G = guide.data;
  for (let k = 0; k < out.data.length; k++) out.data[k] = meanA[k] * G[k] + meanB[k];
  return out;
}

/**
 * Whether the model's mask looks like a person: a clear share of confident
 * pixels and few uncertain ones (on a cat or a coffee cup it answers with a
 * wide, uncertain blur).
 */
export function looksLikePerson(modelMask: Uint8Array): boolean {
  let confident = 0;
  let uncertain = 0;
  for (let k = 0; k < modelMask.length; k++) {
    if (modelMask[k] > 217) confident++;
    else if (modelMask[k] > 38) uncertain++;
  }
  return confident >= 0.05 * modelMask.length && uncertain < 0.15 * confident;
}

/** How much of the plane is (mostly) set. */
export function coverage(plane: Plane): number {
  let set = 0;
  for (let k = 0; k < plane.data.length; k++) if (plane.data[k] > 0.5) set++;
  return set / plane.data.length;
}

/**
 * The model's mask (`maskWidth` x `maskHeight` bytes) refined to the size of
 * `luma` against the picture's brightness; null when the model found no person.
 */
export async function refineMask(
  modelMask: Uint8Array,
  maskWidth: number,
  maskHeight: number,
  luma: Plane,
): Promise<Plane | null> {
  const small = planeOfBytes(modelMask, maskWidth, maskHeight);
  if (coverage(small) < MIN_COVERAGE) return null;
  const { width, height } = luma;
  const up = await resampled(small, width, height);
  // The guide's radius: about one model pixel at this size.
  const radius = Math.max(2, Math.round(Math.max(width, height) / Math.max(maskWidth, maskHeight)));
  const snapped = guidedFilter(luma, up, radius, EPSILON);
  for (let k = 0; k < snapped.data.length; k++) {
    snapped.data[k] = smoothstep(0.35, 0.85, snapped.data[k]);
  }
  return blurred(snapped, Math.max(0.6, Math.max(width, height) / 1400));
}

/** A soft ellipse (1 inside, fading to 0 over `softness` of its radius). */
export function ellipseMask(
  width: number,
  height: number,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  softness = 0.35,
): Plane {
  const out = newPlane(width, height);
  for (let y = 0, k = 0; y < height; y++) {
    const dy = (y + 0.5 - cy) / ry;
    for (let x = 0; x < width; x++, k++) {
      const dx = (x + 0.5 - cx) / rx;
      const r = Math.sqrt(dx * dx + dy * dy);
      out.data[k] = 1 - smoothstep(1 - softness, 1, r);
    }
  }
  return out;
}
