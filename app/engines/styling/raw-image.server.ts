import sharp, { type Sharp } from "sharp";
import { StyleEngineError } from "~/engines/styling/style-engine-error.server";

/**
 * Reading the input: uncompressed pixels as the palette reads them, the
 * upright sharp pipeline every style starts from, and the mapping of
 * sharp's "not an image" failures to a sentence a creator can read.
 */

/** Uncompressed pixels, row by row: 3 channels (RGB) or 1 (a grey plane). */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 3;
}

/** The input as an upright sharp pipeline, strict about corrupt files (wrap its use in `decoding`). */
export function openInput(input: Buffer): Sharp {
  return sharp(input, { failOn: "error" }).rotate();
}

/** Runs a decode, turning sharp's "not an image" failures into a human error. */
export async function decoding<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StyleEngineError) throw error;
    throw new StyleEngineError("This file is not an image we can read.", false, { cause: error });
  }
}
