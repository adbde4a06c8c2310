import fsp from "node:fs/promises";
import sharp from "sharp";
import type { OutputInfo } from "sharp";
import type { Transaction } from "kysely";
import type { Database, ImageLikeness, ImageRow, StylizedImageRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { newFileKey } from "~/infra/file-store.server";
import { newId } from "~/infra/ids.server";
import { crashPoint } from "~/infra/crash-points.server";
import { signedMediaUrl } from "~/infra/signed-urls.server";
import type { ImageJson, ImageWithStylized } from "~/features/studio/types";
import { stylizedImageJson } from "~/features/studio/styles/stylized-images.server";
import type { DeletionHooks } from "~/features/studio/images/deletion-hooks.server";

/**
 * Originals: the uploaded selfies. The bytes decide whether an upload is an
 * image (sharp must decode all of it, truncated files included), never its
 * name or declared type. Stored re-encoded, upright, without any metadata.
 */

/** Decoding refuses more pixels than this (decompression bombs): 50 MP covers phone cameras. */
export const UPLOAD_PIXEL_LIMIT = 50_000_000;
/** Originals are kept at most this long on their long edge (styles work at 1024 px). */
export const ORIGINAL_MAX_EDGE = 4096;
/** Raster formats we accept; anything else sharp can read (SVG, PDF, raw camera files) is refused. */
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif", "heif", "tiff"]);

export class NotAnImageError extends Error {
  /**
   * `type`: not a JPG or PNG at all; `damaged`: a JPG or PNG by its header
   * whose image data is truncated or corrupt.
   */
  constructor(
    cause?: unknown,
    readonly problem: "type" | "damaged" = "type",
  ) {
    super(
      problem === "damaged"
        ? "The image is damaged or incomplete"
        : "The file is not an image we can read",
      { cause },
    );
    this.name = "NotAnImageError";
  }
}

export function imageJson(row: ImageRow): ImageJson {
  return {
    id: row.id,
    userId: row.user_id,
    originalUrl: signedMediaUrl(row.file_key),
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    mimeType: row.mime_type,
    createdAt: row.created_at,
    likeness: row.likeness ?? "unverified",
  };
}

/**
 * Reads an uploaded file with the checks an upload has (an accepted raster
 * format, the pixel limit, a whole file) and answers it upright, as a PNG at
 * most `maxEdge` pixels on its long side, to be looked at, not kept (a
 * selfie for face verification). Throws NotAnImageError as an upload does.
 */
export async function readUploadedPicture(sourcePath: string, maxEdge: number): Promise<Buffer> {
  const input = () =>
    sharp(sourcePath, { failOn: "truncated", limitInputPixels: UPLOAD_PIXEL_LIMIT });
  let format: string | undefined;
  try {
    format = (await input().metadata()).format;
  } catch (error) {
    throw new NotAnImageError(error, await problemOf(error, sourcePath));
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw new NotAnImageError(`format ${format}`);
  try {
    return await input()
      .rotate()
      .resize({ width: maxEdge, height: maxEdge, fit: "inside", withoutEnlargement: true })
      .png({ compressionLevel: 1 })
      .toBuffer();
  } catch (error) {
    throw new NotAnImageError(error, await problemOf(error, sourcePath));
  }
}

/**
 * Decodes an uploaded file and stores it as the user's new original: EXIF
 * orientation applied, every piece of metadata dropped (EXIF with GPS, XMP,
 * IPTC, ICC after conversion to sRGB), JPEG inputs kept as JPEG (quality 90),
 * PNG inputs and anything with transparency as PNG, other opaque images as JPEG.
 * Throws NotAnImageError when the bytes are not a decodable raster image.
 * The source file is consumed (removed) either way.
 */
export async function storeUploadedImage(
  db: DB,
  store: FileStore,
  args: {
    userId: string;
    sourcePath: string;
    now: Date;
    /**
     * Runs in the transaction that inserts the row, with the row about to be
     * inserted (e.g. quotas); when it throws, nothing is kept and the error passes on.
     */
    admit?: (trx: Transaction<Database>, row: ImageRow) => Promise<void>;
    /** How the stored picture compares with the creator's verified face (null: not compared). */
    likenessOf?: (encoded: Buffer) => Promise<ImageLikeness | null>;
  },
): Promise<ImageRow> {
  const encodedPath = await store.scratchPath();
  try {
    const input = () =>
      sharp(args.sourcePath, { failOn: "truncated", limitInputPixels: UPLOAD_PIXEL_LIMIT });
    let format: string | undefined;
    let hasAlpha = false;
    try {
      const metadata = await input().metadata();
      format = metadata.format;
      hasAlpha = Boolean(metadata.hasAlpha);
    } catch (error) {
      throw new NotAnImageError(error, await problemOf(error, args.sourcePath));
    }
    if (!format || !ACCEPTED_FORMATS.has(format)) throw new NotAnImageError(`format ${format}`);

    const asPng = format === "png" || (format !== "jpeg" && hasAlpha);
    const pipeline = input().rotate().resize({
      width: ORIGINAL_MAX_EDGE,
      height: ORIGINAL_MAX_EDGE,
      fit: "inside",
      withoutEnlargement: true,
    });
    let info: OutputInfo;
    try {
      info = await (
        asPng ? pipeline.png({ compressionLevel: 6 }) : pipeline.jpeg({ quality: 90 })
      ).toFile(encodedPath);
    } catch (error) {
      // Decoding happens here (the header alone proved little): truncated and corrupt files fail now.
      throw new NotAnImageError(error, await problemOf(error, args.sourcePath));
    }

    const id = newId();
    const key = newFileKey("originals", asPng ? "png" : "jpg");
    const row: ImageRow = {
      id,
      user_id: args.userId,
      file_key: key,
      width: info.width,
      height: info.height,
      bytes: info.size,
      mime_type: asPng ? "image/png" : "image/jpeg",
      created_at: args.now.toISOString(),
      original_removed_at: null,
      likeness: args.likenessOf ? await args.likenessOf(await fsp.readFile(encodedPath)) : null,
    };
    // The file first, then the row that names it (never the reverse, never inside the transaction):
    // a crash between the two leaves a file no row names, which the sweeps remove.
    await store.putFile(key, encodedPath);
    crashPoint("original-stored");
    try {
      await db.transaction().execute(async (trx) => {
        await args.admit?.(trx, row);
        await trx.insertInto("images").values(row).execute();
      });
    } catch (error) {
      await store.discard(key);
      throw error;
    }
    return row;
  } finally {
    await fsp.rm(args.sourcePath, { force: true });
    await fsp.rm(encodedPath, { force: true });
  }
}

/** Every uploaded original with its owner, newest first (the admin's list of images). */
export async function listEveryImage(db: DB): Promise<ImageJson[]> {
  const rows = await db
    .selectFrom("images")
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map(imageJson);
}

export function findImage(db: DB, userId: string, imageId: string): Promise<ImageRow | undefined> {
  return db
    .selectFrom("images")
    .selectAll()
    .where("id", "=", imageId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

/**
 * The user's originals still held (not removed by the retention, as on the
 * dashboard), newest first, each with its stylized versions (newest first).
 * The styles of a removed original stay on the stylized images' list.
 */
export async function listImagesWithStylized(db: DB, userId: string): Promise<ImageWithStylized[]> {
  const images = await db
    .selectFrom("images")
    .selectAll()
    .where("user_id", "=", userId)
    .where("original_removed_at", "is", null)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  const stylized = await db
    .selectFrom("stylized_images")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  const byImage = new Map<string, StylizedImageRow[]>();
  for (const row of stylized) {
    const list = byImage.get(row.image_id) ?? [];
    list.push(row);
    byImage.set(row.image_id, list);
  }
  return images.map((image) => ({
    ...imageJson(image),
    stylized: (byImage.get(image.id) ?? []).map((row) => stylizedImageJson(row, image.file_key)),
  }));
}

/** One of the user's originals still held, with its stylized versions, or undefined. */
export async function findImageWithStylized(
  db: DB,
  userId: string,
  imageId: string,
): Promise<ImageWithStylized | undefined> {
  const image = await findImage(db, userId, imageId);
  if (!image || image.original_removed_at) return undefined;
  const stylized = await db
    .selectFrom("stylized_images")
    .selectAll()
    .where("image_id", "=", image.id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return {
    ...imageJson(image),
    stylized: stylized.map((row) => stylizedImageJson(row, image.file_key)),
  };
}

/**
 * Deletes an original with its stylized and optimized versions: the rows, then
 * their files. Answers false when the user has no such image.
 */
export async function deleteImage(
  db: DB,
  store: FileStore,
  args: { userId: string; imageId: string; hooks?: DeletionHooks },
): Promise<boolean> {
  const image = await findImage(db, args.userId, args.imageId);
  if (!image) return false;
  const stylized = await db
    .selectFrom("stylized_images")
    .select(["id", "file_key", "optimized_file_key"])
    .where("image_id", "=", image.id)
    .execute();
  for (const row of stylized) await args.hooks?.beforeStylizedDelete?.(row.id);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("stylized_images").where("image_id", "=", image.id).execute();
    await trx
      .deleteFrom("images")
      .where("id", "=", image.id)
      .where("user_id", "=", args.userId)
      .execute();
  });
  await store.remove(image.file_key);
  for (const row of stylized) {
    await store.remove(row.file_key);
    await store.remove(row.optimized_file_key);
  }
  return true;
}

/**
 * Why sharp could not read an upload: a JPG or PNG by its first bytes that
 * then breaks is damaged; anything else, and an image past the pixel limit
 * (a decompression bomb), is not an image the product takes.
 */
async function problemOf(error: unknown, sourcePath: string): Promise<NotAnImageError["problem"]> {
  if (error instanceof Error && /pixel limit/i.test(error.message)) return "type";
  return (await startsAsJpegOrPng(sourcePath)) ? "damaged" : "type";
}

const JPEG_START = Buffer.from([0xff, 0xd8, 0xff]);
const PNG_START = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Whether the file's first bytes are a JPEG's or a PNG's signature. */
async function startsAsJpegOrPng(filePath: string): Promise<boolean> {
  const file = await fsp.open(filePath, "r");
  try {
    const head = Buffer.alloc(PNG_START.length);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    const start = head.subarray(0, bytesRead);
    return start.subarray(0, JPEG_START.length).equals(JPEG_START) || start.equals(PNG_START);
  } finally {
    await file.close();
  }
}
