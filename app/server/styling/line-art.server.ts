import { blur, type RawImage } from "./raw-image.server";

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
