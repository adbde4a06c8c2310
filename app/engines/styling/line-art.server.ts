import { newWordImage, wordsOf } from "~/engines/styling/pixel-words.server";
import { blur, type RawImage } from "~/engines/styling/raw-image.server";

/** Two blurs of one grey plane, as words (four values to a word, see pixel-words). */
export interface EdgeBands {
  fine: Uint32Array;
  coarse: Uint32Array;
}

/**
 * Outlines from an edge filter: a difference of Gaussians (the classic fast
 * stand-in for a Laplacian-of-Gaussian kernel) on a grey plane. The two
 * blurs run natively, side by side; a style's final pass reads
 * `coarse - fine` per pixel (positive on the dark side of an edge) and maps
 * it through an `inkTable`, so only the dark side of each edge is inked and
 * lines sit on contours instead of doubling up.
 */
export async function edgeBands(grey: RawImage, sigma: number): Promise<EdgeBands> {
  const [fine, coarse] = await Promise.all([blur(grey, sigma), blur(grey, sigma * 1.6)]);
  return { fine: wordsOf(fine), coarse: wordsOf(coarse) };
}

/** How much colour an edge keeps: `keep` by `coarse - fine + 255`; all of it up to `clear`. */
export interface InkTable {
  clear: number;
  keep: Uint16Array;
}

/**
 * For each `coarse - fine` (-255 to 255), how much of the colour to keep, out
 * of 256: all of it up to `threshold`, fading to `1 - strength` over
 * `softness` levels above it.
 */
export function inkTable(threshold: number, softness: number, strength: number): InkTable {
  const keep = new Uint16Array(511);
  for (let d = -255; d <= 255; d++) {
    const ink = Math.min(1, Math.max(0, (d - threshold) / softness));
    keep[d + 255] = Math.round(256 * (1 - ink * strength));
  }
  let clear = -255;
  while (clear < 255 && keep[clear + 256] === 256) clear++;
  return { clear, keep };
}

/** A packed colour with `256 - keep` (out of 256) of the ink colour over it. */
function inked(packed: number, keep: number, inkR: number, inkG: number, inkB: number): number {
  const dark = 256 - keep;
  return (
    (((packed & 255) * keep + inkR * dark) >> 8) |
    (((((packed >>> 8) & 255) * keep + inkG * dark) >> 8) << 8) |
    ((((packed >>> 16) * keep + inkB * dark) >> 8) << 16)
  );
}

/**
 * A style's last pass: its colour (one packed colour per pixel at half size,
 * read back at (x >> 1, y >> 1)) at full size, with `ink` laid over the dark
 * side of each edge as much as `table` says. Integer maths only, so the
 * output is the same on every run. Four pixels at a time (see pixel-words):
 * the rows must be whole groups of four (as `decodeRgb` pads them).
 */
export function inkOver(
  colour: Uint32Array,
  halfWidth: number,
  size: { width: number; height: number; padding?: number },
  edges: EdgeBands,
  table: InkTable,
  ink: readonly number[],
): RawImage {
  const { fine, coarse } = edges;
  const { width, height } = size;
  if (width % 4 !== 0) throw new Error("inkOver needs rows of whole groups of four pixels.");
  const { image, words: out } = newWordImage(width, height, 3);
  image.padding = size.padding;
  const { clear, keep } = table;
  const [inkR, inkG, inkB] = ink;
  for (let y = 0, e = 0, q = 0; y < height; y++) {
    // Four pixels share two half-size colours.
    for (let x = 0, k = (y >> 1) * halfWidth; x < width; x += 4, e++, q += 3, k += 2) {
      const f = fine[e];
      const c = coarse[e];
      const left = colour[k];
      const right = colour[k + 1];
      let d = (c & 255) - (f & 255);
      const c0 = d <= clear ? left : inked(left, keep[d + 255], inkR, inkG, inkB);
      d = ((c >>> 8) & 255) - ((f >>> 8) & 255);
      const c1 = d <= clear ? left : inked(left, keep[d + 255], inkR, inkG, inkB);
      d = ((c >>> 16) & 255) - ((f >>> 16) & 255);
      const c2 = d <= clear ? right : inked(right, keep[d + 255], inkR, inkG, inkB);
      d = (c >>> 24) - (f >>> 24);
      const c3 = d <= clear ? right : inked(right, keep[d + 255], inkR, inkG, inkB);
      out[q] = c0 | (c1 << 24);
      out[q + 1] = (c1 >>> 8) | (c2 << 16);
      out[q + 2] = (c2 >>> 16) | (c3 << 8);
    }
  }
  return image;
}
