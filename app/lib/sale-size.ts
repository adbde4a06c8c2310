/**
 * The size of a file a buyer pays for (docs/decisions/092): at least
 * SALE_MIN_LONG_EDGE pixels on its long edge, and at least the upload's long
 * edge (the original as the studio keeps it, at most SALE_MAX_LONG_EDGE). A
 * smaller styled file is upscaled, keeping its shape, and the file and its
 * listing say how ("upscaled with Lanczos ×4.27"). Isomorphic: the engines,
 * the market and the listing page share these words.
 */

/** A sold file is never smaller than this on its long edge. */
export const SALE_MIN_LONG_EDGE = 2048;
/** Nor smaller than the upload's long edge, which the studio keeps at most this long (ORIGINAL_MAX_EDGE). */
export const SALE_MAX_LONG_EDGE = 4096;

export interface PixelSize {
  width: number;
  height: number;
}

/** The long edge a sold file needs for an upload whose long edge is `uploadLongEdge` (0 when unknown). */
export function saleLongEdge(uploadLongEdge: number): number {
  return Math.max(SALE_MIN_LONG_EDGE, Math.min(uploadLongEdge, SALE_MAX_LONG_EDGE));
}

/**
 * The pixel size a file of `width`×`height` is sold at: itself when its long
 * edge already reaches saleLongEdge(upload's long edge), else enlarged to it
 * with the same shape (the short edge rounded to the nearest pixel).
 */
export function saleSize(width: number, height: number, uploadLongEdge: number): PixelSize {
  const wanted = saleLongEdge(uploadLongEdge);
  const longEdge = Math.max(width, height);
  if (longEdge >= wanted) return { width, height };
  const scale = wanted / longEdge;
  return width >= height
    ? { width: wanted, height: Math.max(1, Math.round(height * scale)) }
    : { width: Math.max(1, Math.round(width * scale)), height: wanted };
}

/**
 * How a file was enlarged, as the stylized image and the listing record it:
 * "lanczos3" (sharp's Lanczos-3 resize), "fal-ai/esrgan" (fal.ai's
 * Real-ESRGAN), or both joined with "+" in the order they ran.
 */
export type UpscaledBy = string;

/** Both enlargements of a file, in order: the engine's at styling, then the sale's (either may be null). */
export function joinUpscaling(
  first: UpscaledBy | null,
  then: UpscaledBy | null,
): UpscaledBy | null {
  if (!first) return then;
  if (!then) return first;
  const steps = [...first.split("+"), ...then.split("+")];
  // The same method twice in a row is one enlargement by the product of both.
  return steps.filter((step, index) => step !== steps[index - 1]).join("+");
}

/** The methods' names as buyers read them: "ESRGAN", "Lanczos", "ESRGAN and Lanczos". */
export function upscalerNames(upscaledBy: UpscaledBy): string {
  const names = upscaledBy
    .split("+")
    .map((step) => (step.includes("esrgan") ? "ESRGAN" : "Lanczos"))
    .filter((name, index, all) => all.indexOf(name) === index);
  return names.join(" and ");
}

/** "×4", "×4.27": a factor to two decimals at most. */
export function formatFactor(factor: number): string {
  return `×${Math.round(factor * 100) / 100}`;
}

/**
 * The sentence the file's metadata and the listing page carry: "upscaled with
 * Lanczos ×4.27" (the factor from the pixels really made to the file's long
 * edge), or without a factor when the pixels made are not known.
 */
export function upscaleLabel(
  upscaledBy: UpscaledBy,
  size: PixelSize,
  native: PixelSize | null,
): string {
  const names = upscalerNames(upscaledBy);
  if (!native) return `upscaled with ${names}`;
  const factor = Math.max(size.width, size.height) / Math.max(native.width, native.height);
  return `upscaled with ${names} ${formatFactor(factor)}`;
}

/** "2,048 × 2,560 px (5.2 MP)": a file's pixel size and megapixels, the same on the server and in every browser. */
export function formatPixelSize(width: number, height: number): string {
  return `${formatDimensions(width, height)} (${formatMegapixels(width, height)})`;
}

/** "2,048 × 2,560 px". */
export function formatDimensions(width: number, height: number): string {
  return `${groupThousands(width)} × ${groupThousands(height)} px`;
}

/** "5.2 MP": width × height in millions, to one decimal (at least 0.1). */
export function formatMegapixels(width: number, height: number): string {
  const megapixels = Math.max(0.1, Math.round((width * height) / 100_000) / 10);
  return `${megapixels.toFixed(1)} MP`;
}

/** 2048 → "2,048", written by hand: no locale data decides it. */
function groupThousands(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
