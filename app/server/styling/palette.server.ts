import type { RawImage } from "./raw-image.server";

/** A few representative colours of an image, flattened [r, g, b, r, g, b, ...]. */
export type Palette = Float32Array;

/**
 * Median cut on a sample of the pixels: split the box of colours with the
 * widest range at its median until there are `size` boxes, then take each
 * box's mean. Deterministic: the same pixels give the same palette.
 */
export function medianCutPalette(image: RawImage, size: number, sampleCount = 2500): Palette {
  const samples: number[] = [];
  const s = image.data;
  const pixels = image.width * image.height;
  // An odd stride avoids sampling the same columns on every row.
  const stride = Math.max(1, Math.floor(pixels / sampleCount)) | 1;
  for (let p = 0; p < pixels; p += stride) {
    const i = p * 3;
    samples.push((s[i] << 16) | (s[i + 1] << 8) | s[i + 2]);
  }
  let boxes: number[][] = [samples];
  while (boxes.length < size) {
    let best = -1;
    let bestRange = 0;
    let bestShift = 0;
    boxes.forEach((box, index) => {
      if (box.length < 2) return;
      for (const shift of [16, 8, 0]) {
        let min = 255;
        let max = 0;
        for (const colour of box) {
          const v = (colour >> shift) & 255;
          if (v < min) min = v;
          if (v > max) max = v;
        }
        const range = (max - min) * box.length ** 0.5;
        if (range > bestRange) {
          bestRange = range;
          best = index;
          bestShift = shift;
        }
      }
    });
    if (best < 0) break;
    const box = boxes[best]
      .slice()
      .sort((x, y) => ((x >> bestShift) & 255) - ((y >> bestShift) & 255));
    const middle = box.length >> 1;
    boxes = [
      ...boxes.slice(0, best),
      box.slice(0, middle),
      box.slice(middle),
      ...boxes.slice(best + 1),
    ];
  }
  const palette = new Float32Array(boxes.length * 3);
  boxes.forEach((box, index) => {
    let r = 0;
    let g = 0;
    let b = 0;
    for (const colour of box) {
      r += (colour >> 16) & 255;
      g += (colour >> 8) & 255;
      b += colour & 255;
    }
    const n = Math.max(1, box.length);
    palette[index * 3] = r / n;
    palette[index * 3 + 1] = g / n;
    palette[index * 3 + 2] = b / n;
  });
  return palette;
}

/**
 * A lookup table from 5-bit-per-channel colour (index (r>>3)<<10 | (g>>3)<<5 | b>>3)
 * to the nearest palette entry, so mapping a pixel is one array read.
 */
export function nearestColourTable(palette: Palette): Uint8Array {
  const table = new Uint8Array(32 * 32 * 32);
  const count = palette.length / 3;
  for (let r = 0; r < 32; r++) {
    for (let g = 0; g < 32; g++) {
      for (let b = 0; b < 32; b++) {
        const cr = r * 8 + 4;
        const cg = g * 8 + 4;
        const cb = b * 8 + 4;
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
        table[(r << 10) | (g << 5) | b] = best;
      }
    }
  }
  return table;
}
