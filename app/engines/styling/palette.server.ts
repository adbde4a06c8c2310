import type { RawImage } from "~/engines/styling/raw-image.server";

/** A few representative colours of an image, flattened [r, g, b, r, g, b, ...]. */
export type Palette = Float32Array;

/** A box of sampled colours (packed r << 16 | g << 8 | b) and its widest channel. */
interface Box {
  colours: Int32Array;
  /** The widest channel's range, weighted by the square root of the box's size; 0 if it cannot split. */
  range: number;
  /** That channel, as a shift: 16 red, 8 green, 0 blue. */
  shift: number;
}

function boxOf(colours: Int32Array): Box {
  let range = 0;
  let shift = 0;
  if (colours.length >= 2) {
    for (const channel of [16, 8, 0]) {
      let min = 255;
      let max = 0;
      for (let i = 0; i < colours.length; i++) {
        const v = (colours[i] >> channel) & 255;
        if (v < min) min = v;
        if (v > max) max = v;
      }
      const weighted = (max - min) * colours.length ** 0.5;
      if (weighted > range) {
        range = weighted;
        shift = channel;
      }
    }
  }
  return { colours, range, shift };
}

/** The colours ordered by one channel, ties kept in their order (a counting sort). */
function sortedBy(colours: Int32Array, shift: number): Int32Array {
  const starts = new Int32Array(257);
  for (let i = 0; i < colours.length; i++) starts[((colours[i] >> shift) & 255) + 1]++;
  for (let v = 1; v < 257; v++) starts[v] += starts[v - 1];
  const sorted = new Int32Array(colours.length);
  for (let i = 0; i < colours.length; i++)
    sorted[starts[(colours[i] >> shift) & 255]++] = colours[i];
  return sorted;
}

/**
 * Median cut on a sample of the pixels: split the box of colours with the
 * widest range at its median until there are `size` boxes, then take each
 * box's mean. Deterministic: the same pixels give the same palette.
 */
export function medianCutPalette(image: RawImage, size: number, sampleCount = 2500): Palette {
  const s = image.data;
  const pixels = image.width * image.height;
  // An odd stride avoids sampling the same columns on every row.
  const stride = Math.max(1, Math.floor(pixels / sampleCount)) | 1;
  const samples = new Int32Array(Math.ceil(pixels / stride));
  for (let p = 0, n = 0; p < pixels; p += stride, n++) {
    const i = p * 3;
    samples[n] = (s[i] << 16) | (s[i + 1] << 8) | s[i + 2];
  }
  const boxes: Box[] = [boxOf(samples)];
  while (boxes.length < size) {
    // The first box with the widest range (ranges are measured once per box).
    let best = -1;
    let bestRange = 0;
    boxes.forEach((box, index) => {
      if (box.range > bestRange) {
        bestRange = box.range;
        best = index;
      }
    });
    if (best < 0) break;
    const sorted = sortedBy(boxes[best].colours, boxes[best].shift);
    const middle = sorted.length >> 1;
    boxes.splice(best, 1, boxOf(sorted.subarray(0, middle)), boxOf(sorted.subarray(middle)));
  }
  const palette = new Float32Array(boxes.length * 3);
  boxes.forEach(({ colours }, index) => {
    let r = 0;
    let g = 0;
    let b = 0;
    for (let i = 0; i < colours.length; i++) {
      r += (colours[i] >> 16) & 255;
      g += (colours[i] >> 8) & 255;
      b += colours[i] & 255;
    }
    const n = Math.max(1, colours.length);
    palette[index * 3] = r / n;
    palette[index * 3 + 1] = g / n;
    palette[index * 3 + 2] = b / n;
  });
  return palette;
}

/** Marks an entry of a nearest-colour table not worked out yet. */
export const UNKNOWN_ENTRY = 255;

/**
 * A table from colour quantised to 5 bits per channel (index
 * (r >> 3) << 10 | (g >> 3) << 5 | b >> 3) to the nearest palette entry, all
 * UNKNOWN_ENTRY at first: each answer is worked out by `nearestEntry` the
 * first time it is needed, so a picture pays only for the colours it has.
 */
export function nearestColourTable(): Uint8Array {
  return new Uint8Array(32 * 32 * 32).fill(UNKNOWN_ENTRY);
}

/** Works out, stores and returns the nearest palette entry for a table index (see nearestColourTable). */
export function nearestEntry(palette: Palette, table: Uint8Array, index: number): number {
  const count = palette.length / 3;
  if (count >= UNKNOWN_ENTRY) throw new Error("A palette has fewer than 255 colours.");
  const cr = (index >> 10) * 8 + 4;
  const cg = ((index >> 5) & 31) * 8 + 4;
  const cb = (index & 31) * 8 + 4;
  let best = 0;
  let bestDistance = Infinity;
  for (let k = 0; k < count; k++) {
    const dr = cr - palette[k * 3];
    const dg = cg - palette[k * 3 + 1];
    const db = cb - palette[k * 3 + 2];
    const distance = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = k;
    }
  }
  table[index] = best;
  return best;
}
