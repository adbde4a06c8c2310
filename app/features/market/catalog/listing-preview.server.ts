import sharp from "sharp";
import { PRODUCT_NAME } from "~/lib/product";
import { digitalSourceTypeOfFile, disclosureXmp } from "~/engines/styling/ai-disclosure.server";

/**
 * The public face of a listing: the image downscaled (long edge at most 640 px)
 * with a visible watermark tiled across it, so the marketplace never hands out
 * a usable copy of what buyers pay for. The watermark is drawn with vector
 * strokes, not text, so it renders the same on a server without any fonts.
 */
export const PREVIEW_MAX_EDGE = 640;
const PREVIEW_QUALITY = 72;

/** "PREVIEW" in a 4x6 stroke font (one polyline path per letter). */
const LETTERS: Record<string, string> = {
  P: "M0 6V0H3L4 1V2L3 3H0",
  R: "M0 6V0H3L4 1V2L3 3H0M2 3L4 6",
  E: "M4 0H0V6H4M0 3H3",
  V: "M0 0L2 6L4 0",
  I: "M2 0V6M1 0H3M1 6H3",
  W: "M0 0L1 6L2 3L3 6L4 0",
};

function wordPath(word: string): string {
  return [...word]
    .map((letter, index) => {
      const path = LETTERS[letter];
      return path ? `<path transform="translate(${index * 6} 0)" d="${path}"/>` : "";
    })
    .join("");
}

/** An SVG overlay of the same size as the image: the word tiled diagonally, light with a dark edge. */
export function watermarkSvg(width: number, height: number): string {
  const unit = Math.max(3, Math.round(Math.min(width, height) / 70));
  const word = wordPath("PREVIEW");
  const tileWidth = 48 * unit;
  const tileHeight = 16 * unit;
  const pattern = `<pattern id="w" width="${tileWidth}" height="${tileHeight}" patternUnits="userSpaceOnUse" patternTransform="rotate(-30)">
<g transform="translate(${2 * unit} ${4 * unit}) scale(${unit})" fill="none" stroke-linecap="round" stroke-linejoin="round">
<g stroke="#000" stroke-opacity="0.35" stroke-width="1.1">${word}</g>
<g stroke="#fff" stroke-opacity="0.7" stroke-width="0.6">${word}</g>
</g></pattern>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs>${pattern}</defs>
<rect width="100%" height="100%" fill="url(#w)"/>
<rect x="0" y="${height - 4 * unit}" width="${width}" height="${4 * unit}" fill="#000" fill-opacity="0.45"/>
</svg>`;
}

/** The width of the preview of an image `width` x `height` (as makeListingPreview scales it, to a pixel). */
export function previewWidthOf(width: number, height: number): number {
  const longEdge = Math.max(width, height);
  return longEdge > PREVIEW_MAX_EDGE ? Math.round((width * PREVIEW_MAX_EDGE) / longEdge) : width;
}

export interface ListingPreview {
  data: Buffer;
  width: number;
  height: number;
}

/** The watermarked, downscaled JPEG preview of an image file's bytes. */
export async function makeListingPreview(source: Buffer): Promise<ListingPreview> {
  const resized = await sharp(source, { failOn: "error" })
    .rotate()
    .resize(PREVIEW_MAX_EDGE, PREVIEW_MAX_EDGE, { fit: "inside", withoutEnlargement: true })
    .removeAlpha()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = resized.info;
  const { data, info } = await sharp(resized.data)
    .composite([{ input: Buffer.from(watermarkSvg(width, height)), top: 0, left: 0 }])
    .jpeg({ quality: PREVIEW_QUALITY, mozjpeg: true })
    .withXmp(disclosureXmp(`${PRODUCT_NAME} marketplace preview`, digitalSourceTypeOfFile(source)))
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
