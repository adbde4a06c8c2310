import type { RawImage } from "~/engines/styling/raw-image.server";

/**
 * Word-at-a-time access to raw pixels. In V8 a typed-array read or write
 * costs about the same for a byte as for a 32-bit word, and the per-pixel
 * passes are bound by those accesses, so they read and write pixels four at
 * a time: three words hold four RGB pixels (R0 G0 B0 R1 | G1 B1 R2 G2 |
 * B2 R3 G3 B3, little-endian), one word four values of a grey plane.
 *
 * Inside a pass a colour is one number, R | G << 8 | B << 16 ("packed").
 */

/** Whether this processor stores words little-endian, as the passes assume (x64 and arm64 do). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function assertLittleEndian() {
  if (!LITTLE_ENDIAN) throw new Error("The local style engine needs a little-endian processor.");
}

/** Words for `pixels` pixels of `channels` bytes, whole groups of four pixels. */
function wordCount(pixels: number, channels: number): number {
  return Math.ceil(pixels / 4) * channels;
}

/**
 * A raw image's pixels as words, groups of four pixels, the last group padded
 * (its extra pixels are meaningless). No copy when the buffer is word-aligned
 * and already whole groups long, which is the usual case.
 */
export function wordsOf(image: RawImage): Uint32Array {
  assertLittleEndian();
  const words = wordCount(image.width * image.height, image.channels);
  const { data } = image;
  if (data.byteOffset % 4 === 0 && data.byteOffset + words * 4 <= data.buffer.byteLength) {
    return new Uint32Array(data.buffer, data.byteOffset, words);
  }
  const copy = new Uint32Array(words);
  new Uint8Array(copy.buffer).set(data);
  return copy;
}

/**
 * A new raw image with its words (the image's `data` is exactly
 * width x height x channels bytes of them, ready for sharp; the padding of
 * the last group is never encoded).
 */
export function newWordImage(
  width: number,
  height: number,
  channels: 1 | 3,
): { image: RawImage; words: Uint32Array } {
  assertLittleEndian();
  const words = new Uint32Array(wordCount(width * height, channels));
  const data = Buffer.from(words.buffer, 0, width * height * channels);
  return { image: { data, width, height, channels }, words };
}

/**
 * A per-pixel array of packed colours (one word per pixel) for `pixels`
 * pixels, with room for the padding of the last group of four.
 */
export function newPackedPlane(pixels: number): Uint32Array {
  return new Uint32Array(Math.ceil(pixels / 4) * 4);
}

/** The brightness (Rec. 601 weights, 0-255) of an RGB colour. */
export function luma(r: number, g: number, b: number): number {
  return (77 * r + 150 * g + 29 * b + 128) >> 8;
}
