import sharp from "sharp";
import { badRequest, unsupportedMedia } from "~/infra/errors.server";
import {
  DRAWN_SIGNATURE_TOO_LARGE,
  MAX_DRAWN_SIGNATURE_CHARS,
} from "~/features/publishing/schemas";

/**
 * A drawn signature (the release form's canvas, 480 × 140, as a PNG data URL)
 * made safe to print on a release: a PNG is small in bytes yet may declare any
 * size in pixels, and pdf-lib decodes what it embeds whole, on the request
 * thread. So the size the PNG declares is read from its header and bounded
 * before anything decodes it; then sharp (off the event loop, with the same
 * bound) decodes it and makes a small PNG of it, the only one pdf-lib sees.
 */

/** The most pixels a drawn signature may declare: some 15 times the form's canvas. */
export const MAX_DRAWN_SIGNATURE_PIXELS = 1_000_000;
/** The longest side a drawn signature may declare. */
export const MAX_DRAWN_SIGNATURE_EDGE = 2_000;
/** What the release prints: at most three times the 220 × 70 pt box it is drawn in. */
const PRINTED = { width: 660, height: 210 };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const NOT_A_PNG = "The drawn signature must be a PNG image.";
const UNREADABLE = "The drawn signature could not be read as a PNG image.";

/** The width and height a PNG declares (its first chunk, IHDR), or null for bytes that do not start as a PNG does. */
export function declaredPngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 8 + 8 + 13 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString("latin1", 12, 16) !== "IHDR") return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * The drawn signature, from its PNG data URL, as a PNG of at most 660 × 210
 * pixels; null when there is none. Refused: anything that is not a PNG data
 * URL, or that does not decode (415); a PNG declaring more than 2000 pixels a
 * side or 1,000,000 in all (400, as the form's size limit is).
 */
export async function drawnSignaturePng(dataUrl: string | undefined): Promise<Buffer | null> {
  if (!dataUrl) return null;
  if (dataUrl.length > MAX_DRAWN_SIGNATURE_CHARS) throw tooLarge();
  const match = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(dataUrl);
  const bytes = match ? Buffer.from(match[1], "base64") : null;
  const size = bytes ? declaredPngSize(bytes) : null;
  if (!bytes || !size) throw unsupportedMedia(NOT_A_PNG);
  if (
    size.width > MAX_DRAWN_SIGNATURE_EDGE ||
    size.height > MAX_DRAWN_SIGNATURE_EDGE ||
    size.width * size.height > MAX_DRAWN_SIGNATURE_PIXELS
  )
    throw tooLarge();
  try {
    return await sharp(bytes, { failOn: "error", limitInputPixels: MAX_DRAWN_SIGNATURE_PIXELS })
      .resize({ ...PRINTED, fit: "inside", withoutEnlargement: true })
      .png()
      .toBuffer();
  } catch {
    throw unsupportedMedia(UNREADABLE);
  }
}

function tooLarge() {
  return badRequest(DRAWN_SIGNATURE_TOO_LARGE, { drawnSignature: [DRAWN_SIGNATURE_TOO_LARGE] });
}
