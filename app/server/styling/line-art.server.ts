import { blur, newRawImage, type RawImage } from "./raw-image.server";

/**
 * Outlines from an edge filter: a difference of Gaussians (the classic fast
 * stand-in for a Laplacian-of-Gaussian kernel) on a grey plane. The two
 * blurs run natively, side by side; a style's final pass reads
 * `coarse - fine` per pixel (positive on the dark side of an edge) and maps
 * it through an `inkTable`, so only the dark side of each edge is inked and
 * lines sit on contours instead of doubling up.
 */
export async function edgeBands(
  grey: RawImage,
  sigma: number,
): Promise<{ fine: Buffer; coarse: Buffer }> {
  const [fine, coarse] = await Promise.all([blur(grey, sigma), blur(grey, sigma * 1.6)]);
  return { fine: fine.data, coarse: coarse.data };
}

/**
 * For each `coarse - fine + 255` (0-510), how much of the colour to keep, out
 * of 256: all of it below `threshold`, fading to `1 - strength` over
 * `softness` levels above it.
 */
export function inkTable(threshold: number, softness: number, strength: number): Uint16Array {
  const table = new Uint16Array(511);
  for (let d = -255; d <= 255; d++) {
    const ink = Math.min(1, Math.max(0, (d - threshold) / softness));
    table[d + 255] = Math.round(256 * (1 - ink * strength));
  }
  return table;
}

/**
 * A style's last pass: its colour (worked at half size, read back at
 * (x >> 1, y >> 1)) at full size, with `ink` laid over the dark side of each
 * edge as much as `keepTable` (an `inkTable`) says. Integer maths only, so
 * the output is the same on every run.
 */
export function inkOver(
  colour: Uint8Array | Uint8ClampedArray,
  halfWidth: number,
  size: { width: number; height: number },
  edges: { fine: Buffer; coarse: Buffer },
  keepTable: Uint16Array,
  ink: readonly number[],
): RawImage {
  const { fine, coarse } = edges;
  const { width, height } = size;
  const out = newRawImage(width, height, 3);
  const o = out.data;
  const [inkR, inkG, inkB] = ink;
  for (let y = 0, p = 0, i = 0; y < height; y++) {
    const halfRow = (y >> 1) * halfWidth;
    for (let x = 0; x < width; x++, p++, i += 3) {
      const k = (halfRow + (x >> 1)) * 3;
      const keep = keepTable[coarse[p] - fine[p] + 255];
      const dark = 256 - keep;
      o[i] = (colour[k] * keep + inkR * dark) >> 8;
      o[i + 1] = (colour[k + 1] * keep + inkG * dark) >> 8;
      o[i + 2] = (colour[k + 2] * keep + inkB * dark) >> 8;
    }
  }
  return out;
}
