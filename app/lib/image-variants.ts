/**
 * Smaller and modern-format copies ("variants") of a stored image, asked for
 * as `/media/<key>?w=<width>&fmt=<avif|webp|jpg>` (the query goes after a
 * signed link's own `exp` and `sig`, which keep covering the stored key). A
 * variant is stored once, next to its image, as `<area>/<stem>_<width>w.<fmt>`:
 * the image's key never gets other bytes, so neither does the variant's.
 * This file is the shared vocabulary: the server makes and serves the
 * variants, the pages build their `srcset`s from it.
 */
export const VARIANT_WIDTHS = [320, 480, 640, 960] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];

/** Best first: the order of a `<picture>`'s sources. JPEG is the fallback every browser reads. */
export const VARIANT_FORMATS = ["avif", "webp", "jpg"] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

export const VARIANT_CONTENT_TYPES: Record<VariantFormat, string> = {
  avif: "image/avif",
  webp: "image/webp",
  jpg: "image/jpeg",
};

const VARIANT_STEM = /_(\d{3})w$/;

export function isVariantWidth(value: number): value is VariantWidth {
  return (VARIANT_WIDTHS as readonly number[]).includes(value);
}

export function isVariantFormat(value: string): value is VariantFormat {
  return (VARIANT_FORMATS as readonly string[]).includes(value);
}

function splitKey(key: string): { stem: string; extension: string } {
  const dot = key.lastIndexOf(".");
  return { stem: key.slice(0, dot), extension: key.slice(dot + 1) };
}

/** The key a variant of `key` is stored under. */
export function variantKey(key: string, width: VariantWidth, format: VariantFormat): string {
  return `${splitKey(key).stem}_${width}w.${format}`;
}

/** Every key a variant of `key` can have (for removing them with it). */
export function variantKeysOf(key: string): string[] {
  return VARIANT_WIDTHS.flatMap((width) =>
    VARIANT_FORMATS.map((format) => variantKey(key, width, format)),
  );
}

/**
 * The key of a listing preview's social card (the 1200×630 picture shared
 * links show), stored beside the preview and removed with it.
 */
export function socialCardKey(previewKey: string): string {
  return `${splitKey(previewKey).stem}_card.jpg`;
}

/** Whether a key is itself a variant (no variants are made of a variant). */
export function isVariantKey(key: string): boolean {
  const match = VARIANT_STEM.exec(splitKey(key).stem);
  return Boolean(
    match && isVariantWidth(Number(match[1])) && isVariantFormat(splitKey(key).extension),
  );
}

/**
 * The key of the social card that goes with `key` when it is a listing
 * preview (a JPEG under previews/, neither a variant nor a card itself); else null.
 */
export function socialCardOf(key: string): string | null {
  const isPreview =
    key.startsWith("previews/") &&
    key.endsWith(".jpg") &&
    !isVariantKey(key) &&
    !key.endsWith("_card.jpg");
  return isPreview ? socialCardKey(key) : null;
}

/** The area and stem of the image a variant was made from ("previews/abc"), or null for a key that is no variant. */
export function variantSourceStem(key: string): string | null {
  return isVariantKey(key) ? splitKey(key).stem.replace(VARIANT_STEM, "") : null;
}

/** The area and stem of any key ("previews/abc" for "previews/abc.jpg"). */
export function keyStem(key: string): string {
  return splitKey(key).stem;
}

/**
 * The URL of one variant: the image's URL (signed or public) with `w` and `fmt`
 * added; for a file served by object storage (an absolute URL), the variant's
 * own key under the same address (made when the image was, nothing encodes on request).
 */
export function variantUrl(url: string, width: VariantWidth, format: VariantFormat): string {
  if (/^https?:\/\//.test(url)) {
    const [address, query] = url.split("?") as [string, string | undefined];
    return `${variantKey(address, width, format)}${query ? `?${query}` : ""}`;
  }
  return `${url}${url.includes("?") ? "&" : "?"}w=${width}&fmt=${format}`;
}

/**
 * The widths to offer for an image `sourceWidth` pixels wide: every variant
 * width narrower than it, then one request that the server caps at the image's
 * own width (so no candidate claims more pixels than the image has). Without a
 * known width, every variant width (the server still never enlarges).
 */
export function variantCandidates(
  sourceWidth?: number | null,
): { width: VariantWidth; descriptor: number }[] {
  if (!sourceWidth || sourceWidth <= 0)
    return VARIANT_WIDTHS.map((width) => ({ width, descriptor: width }));
  const narrower = VARIANT_WIDTHS.filter((width) => width < sourceWidth).map((width) => ({
    width,
    descriptor: width,
  }));
  const top = VARIANT_WIDTHS.find((width) => width >= sourceWidth);
  return top ? [...narrower, { width: top, descriptor: Math.round(sourceWidth) }] : narrower;
}

/** Whether a candidate is the image itself: a JPEG at its own width needs no JPEG copy. */
function isTheImageItself(
  path: string,
  format: VariantFormat,
  descriptor: number,
  sourceWidth?: number | null,
): boolean {
  return (
    format === "jpg" &&
    /\.jpg$/.test(path) &&
    Boolean(sourceWidth) &&
    descriptor === Math.round(sourceWidth ?? 0)
  );
}

/** A `srcset` of one format's variants (for a JPEG, the image itself at its own width). */
export function variantSrcSet(
  url: string,
  format: VariantFormat,
  sourceWidth?: number | null,
): string {
  const path = url.split("?")[0] ?? url;
  return variantCandidates(sourceWidth)
    .map(
      ({ width, descriptor }) =>
        `${isTheImageItself(path, format, descriptor, sourceWidth) ? url : variantUrl(url, width, format)} ${descriptor}w`,
    )
    .join(", ");
}

/** Every variant a `<picture>` of this image asks for (to make them before its first visitor does). */
export function pictureVariants(
  key: string,
  sourceWidth?: number | null,
): { width: VariantWidth; format: VariantFormat }[] {
  return variantCandidates(sourceWidth).flatMap(({ width, descriptor }) =>
    VARIANT_FORMATS.filter((format) => !isTheImageItself(key, format, descriptor, sourceWidth)).map(
      (format) => ({ width, format }),
    ),
  );
}
