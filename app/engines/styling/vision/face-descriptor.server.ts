import { decoding, openInput } from "~/engines/styling/raw-image.server";
import { askVision } from "~/engines/styling/vision/vision-client.server";

/**
 * Face descriptors: the face description model's embedding (faceres, 1024
 * numbers) of each face in a picture, and how alike two of them are. Used for
 * a creator's verified face and the likeness of their uploads (decision
 * record 083); the photo itself is never kept for it.
 */

/** The picture is looked at with its long side at most this (the face models work on smaller crops). */
export const DESCRIBE_EDGE = 1024;

/** A face whose box is narrower than this share of the picture's short side is too small to verify with. */
export const MIN_FACE_SHARE = 0.1;

/**
 * Two descriptors at or above this similarity are the same person. Chosen from
 * the measurements of scripts/measure-face-threshold.ts (decision record 083).
 */
export const SAME_PERSON_SIMILARITY = 0.6;

export interface DescribedFace {
  descriptor: number[];
  /** The face's box width as a share of the picture's short side (0-1). */
  share: number;
  score: number;
}

/**
 * Every face found in `image` (any format sharp reads, upright per EXIF), the
 * largest first, each with its descriptor. Throws the style engine's "not an
 * image" error for a file that does not decode.
 */
export async function describeFaces(image: Buffer): Promise<DescribedFace[]> {
  const { data, info } = await decoding(() =>
    openInput(image)
      .resize(DESCRIBE_EDGE, DESCRIBE_EDGE, { fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .toColourspace("srgb")
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  const answer = await askVision({
    face: { data: new Uint8Array(data), width: info.width, height: info.height },
    describe: true,
  });
  const short = Math.min(info.width, info.height);
  return answer.faces
    .filter((face) => face.embedding && face.embedding.length > 0)
    .map((face) => ({
      descriptor: face.embedding ?? [],
      share: face.box[2] / short,
      score: face.score,
    }))
    .sort((a, b) => b.share - a.share);
}

/**
 * How alike two descriptors are, 0 (unlike) to 1 (identical): the formula of
 * @vladmandic/human's `match.similarity` with its defaults (Euclidean distance
 * times 25, its root inverted and spread over 0.2-0.8), without its rounding.
 */
export function faceSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const diff = a[i] - b[i];
    sum += diff * diff;
  }
  if (sum === 0) return 1;
  const root = Math.sqrt(25 * sum);
  const norm = (1 - root / 100 - 0.2) / (0.8 - 0.2);
  return Math.max(0, Math.min(1, norm));
}

/** A descriptor as stored: its numbers as little-endian 32-bit floats, in base64. */
export function encodeDescriptor(descriptor: readonly number[]): string {
  const floats = Float32Array.from(descriptor);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString("base64");
}

export function decodeDescriptor(stored: string): number[] {
  const bytes = Buffer.from(stored, "base64");
  const floats = new Float32Array(bytes.length / 4);
  for (let i = 0; i < floats.length; i++) floats[i] = bytes.readFloatLE(i * 4);
  return Array.from(floats);
}
