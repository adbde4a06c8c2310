import sharp, { type Sharp } from "sharp";
import { StyleEngineError } from "~/engines/styling/style-engine-error.server";

/**
 * Uncompressed pixels, row by row: 3 channels (RGB) or 1 (a grey plane).
 * The styles do their per-pixel work in JavaScript on these and hand the
 * heavy neighbourhood filters (blur, resize, crop) to libvips.
 */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 3;
  /**
   * Columns on the right that only pad each row to whole groups of four
   * pixels (see pixel-words): copies of the row's last pixel, not part of the
   * picture, cut off when it is encoded.
   */
  padding?: number;
}

export function newRawImage(width: number, height: number, channels: 1 | 3): RawImage {
  return { data: Buffer.alloc(width * height * channels), width, height, channels };
}

/** A sharp pipeline reading a raw image. */
export function fromRaw(image: RawImage): Sharp {
  return sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels },
  });
}

/** The picture in a raw image as a sharp pipeline, without any padding columns. */
export function pictureOf(image: RawImage): Sharp {
  const pipeline = fromRaw(image);
  const padding = image.padding ?? 0;
  if (padding === 0) return pipeline;
  return pipeline.extract({ left: 0, top: 0, width: image.width - padding, height: image.height });
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

/**
 * Pads each row to whole groups of four pixels (repeating its last pixel), so
 * that the per-pixel passes can work a row four pixels at a time.
 */
function padRows(image: RawImage): RawImage {
  const { width, height, channels } = image;
  const padding = (4 - (width % 4)) % 4;
  if (padding === 0) return image;
  const rowBytes = width * channels;
  const stride = (width + padding) * channels;
  const data = Buffer.allocUnsafe(stride * height);
  for (let y = 0; y < height; y++) {
    const from = y * rowBytes;
    const to = y * stride;
    image.data.copy(data, to, from, from + rowBytes);
    for (let p = 0; p < padding; p++) {
      image.data.copy(
        data,
        to + rowBytes + p * channels,
        from + rowBytes - channels,
        from + rowBytes,
      );
    }
  }
  return { data, width: width + padding, height, channels, padding };
}

/**
 * Decodes the input to RGB pixels (transparency flattened onto white), never
 * enlarged: by default the long edge at most `edge`; with fit "outside" the
 * short edge at most `edge`. Rows are padded to whole groups of four pixels.
 */
export function decodeRgb(
  input: Buffer,
  edge: number,
  fit: "inside" | "outside" = "inside",
): Promise<RawImage> {
  return decoding(() =>
    openInput(input)
      .resize(edge, edge, { fit, withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true })
      .then(({ data, info }) =>
        padRows({ data, width: info.width, height: info.height, channels: 3 }),
      ),
  );
}

/** A Gaussian blur done natively by libvips. */
export async function blur(image: RawImage, sigma: number): Promise<RawImage> {
  let pipeline = fromRaw(image).blur(sigma);
  // A 1-channel raw image would otherwise come back as 3-channel sRGB.
  if (image.channels === 1) pipeline = pipeline.toColourspace("b-w");
  const data = await pipeline.raw().toBuffer();
  return { ...image, data };
}

/**
 * Marks native work started ahead of time as handled, so that if an earlier
 * step fails first, its later rejection is not an unhandled one (which would
 * stop the process). Awaiting the returned promise still sees the error.
 */
export function inBackground<T>(work: Promise<T>): Promise<T> {
  work.catch(() => undefined);
  return work;
}
