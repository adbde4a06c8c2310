import sharp, { type Sharp } from "sharp";
import type { ListingRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { newFileKey } from "~/infra/file-store.server";
import {
  creatorToolIn,
  digitalSourceTypeCode,
  digitalSourceTypeOfFile,
  withDisclosure,
} from "~/engines/styling/ai-disclosure.server";
import { type Upscaler, upscaledPixels } from "~/engines/upscaling/upscaler.server";
import { upscaledByOf, upscaleWithFallback } from "~/engines/upscaling/select-upscaler.server";
import { makeVariantsAhead } from "~/infra/image-variants.server";
import { pictureVariants } from "~/lib/image-variants";
import { PRODUCT_NAME } from "~/lib/product";
import {
  joinUpscaling,
  type PixelSize,
  SALE_MIN_LONG_EDGE,
  saleLongEdge,
  saleSize,
  upscaleLabel,
} from "~/lib/sale-size";
import { makeListingPreview } from "~/features/market/catalog/listing-preview.server";
import { uploadSizeOfStylized } from "~/features/studio/public.server";
import {
  carriesContentCredentials,
  originalIngredientIn,
  styledFileFacts,
  type ContentCredentials,
} from "~/engines/provenance/content-credentials.server";

/**
 * The file a buyer gets (docs/decisions/092). A listing snapshots it when it
 * is made: the clean styled file, byte for byte when it is already as large as
 * a sold file must be (saleSize: at least the upload's long edge and at least
 * 2048 px), otherwise upscaled to that size by the upscaler the listing was
 * given (fal.ai's Real-ESRGAN with FAL_KEY, the local Lanczos-3 resize
 * otherwise, and Lanczos-3 when fal.ai fails), in the same format, its AI
 * disclosure kept and "upscaled with … ×N" added to its metadata (XMP
 * dc:description and EXIF ImageDescription). Its watermarked preview is made
 * from the same pixels.
 *
 * Its Content Credentials (decision 095): a byte-for-byte copy of a signed
 * file keeps the manifest it has; a file made before the server signed its
 * files gets one saying what its XMP says (the upload unnamed: its hash is
 * not known); an upscaled file, re-encoded, gets a new manifest: created as
 * the styled file says, from the upload its manifest names by hash, and
 * edited (`c2pa.edited`) saying how it was upscaled.
 */

const MIME_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};

/** The quality of an upscaled sold file in a lossy format: the styled files' own. */
const SALE_QUALITY = 90;

/** What a snapshot is made from. */
export interface SaleSource {
  /** The clean file to sell (a styled image's file, or a listing's own snapshot). */
  key: string;
  /** The long edge of the upload it was made from (0 when unknown). */
  uploadLongEdge: number;
  /** How that file was already enlarged when it was made (the stylized image's `upscaled_by`). */
  upscaledBy: string | null;
  /** The pixels its engine really made before that (null when unknown or not enlarged). */
  native: PixelSize | null;
}

export interface SaleSnapshot {
  fileKey: string;
  previewKey: string;
  mimeType: string;
  width: number;
  height: number;
  /** The code of the digital source type the file states (its label on the marketplace). */
  sourceType: string;
  upscaledBy: string | null;
  native: PixelSize | null;
}

/** How a sold file is made: the upscaler for a smaller file, the signer of its Content Credentials, the time. */
export interface SaleFileMaking {
  upscaler: Upscaler;
  credentials: ContentCredentials;
  now: Date;
}

/** Stores the file a listing sells and its preview (with the preview's variants), upscaled to saleSize when smaller. */
export async function snapshotSaleFiles(
  store: FileStore,
  source: SaleSource,
  making: SaleFileMaking,
): Promise<SaleSnapshot> {
  const bytes = await store.read(source.key);
  const extension = source.key.slice(source.key.lastIndexOf(".") + 1) as "jpg" | "png" | "webp";
  const metadata = await sharp(bytes).metadata();
  const rotated = (metadata.orientation ?? 1) >= 5;
  const width = (rotated ? metadata.height : metadata.width) ?? 0;
  const height = (rotated ? metadata.width : metadata.height) ?? 0;
  const sourceType = digitalSourceTypeOfFile(bytes);
  const target = saleSize(width, height, source.uploadLongEdge);
  const fileKey = newFileKey("listings", extension);
  const previewKey = newFileKey("previews", "jpg");
  const snapshot = {
    fileKey,
    previewKey,
    mimeType: MIME_TYPES[extension] ?? "application/octet-stream",
    sourceType: digitalSourceTypeCode(sourceType),
  };

  if (target.width === width && target.height === height) {
    // Large enough: copied byte for byte (its AI disclosure and Content Credentials included); signed if it has none.
    const sold = carriesContentCredentials(bytes)
      ? bytes
      : await making.credentials.sign(
          bytes,
          styledFileFacts(bytes, { original: null, when: making.now }),
        );
    await store.write(fileKey, sold);
    await storePreview(store, previewKey, await makeListingPreview(sold));
    return {
      ...snapshot,
      width,
      height,
      upscaledBy: source.upscaledBy,
      native: source.upscaledBy ? source.native : null,
    };
  }

  const enlarged = await upscaleWithFallback(making.upscaler, bytes, target);
  const upscaledBy = joinUpscaling(source.upscaledBy, upscaledByOf(enlarged))!;
  // The pixels really made: the engine's own when it enlarged them already (unknown if it did not say).
  const native = source.upscaledBy ? source.native : { width, height };
  const creatorTool = creatorToolIn(metadata.xmp?.toString("utf8") ?? "") ?? PRODUCT_NAME;
  const description = upscaleLabel(upscaledBy, target, native);
  const reencoded = await withDisclosure(encoderFor(upscaledPixels(enlarged), extension), {
    creatorTool,
    sourceType,
    description,
  }).toBuffer();
  // Re-encoded, so the styled file's manifest no longer binds it: signed anew, saying it was upscaled.
  const encoded = await making.credentials.sign(reencoded, {
    digitalSourceType: sourceType,
    softwareAgent: creatorTool,
    when: making.now,
    original: originalIngredientIn(bytes),
    edited: `Enlarged to ${target.width} × ${target.height} px for sale by ${PRODUCT_NAME}: ${description}.`,
  });
  await store.write(fileKey, encoded);
  try {
    // From the encoded file: a JPEG is decoded already shrunk (libvips' shrink-on-load).
    await storePreview(store, previewKey, await makeListingPreview(encoded));
  } catch (error) {
    await store.remove(fileKey);
    throw error;
  }
  return { ...snapshot, ...target, upscaledBy, native };
}

/** The sold file's encoder in its own format: JPEG and WebP at the styled files' quality, PNG lossless. */
function encoderFor(pixels: Sharp, extension: string): Sharp {
  if (extension === "png") return pixels.png();
  if (extension === "webp") return pixels.webp({ quality: SALE_QUALITY });
  return pixels.flatten({ background: "#ffffff" }).jpeg({ quality: SALE_QUALITY });
}

async function storePreview(
  store: FileStore,
  previewKey: string,
  preview: { data: Buffer; width: number },
): Promise<void> {
  await store.write(previewKey, preview.data);
  // Its AVIF, WebP and smaller JPEG copies for the marketplace's <picture>, made now: no visitor waits for an encode.
  await makeVariantsAhead(store, previewKey, pictureVariants(previewKey, preview.width));
}

/** The long edge of the upload a stylized image was made from (0 when unknown). */
export async function uploadLongEdgeOf(db: DB, stylizedImageId: string | null): Promise<number> {
  if (!stylizedImageId) return 0;
  const upload = await uploadSizeOfStylized(db, stylizedImageId);
  return upload ? Math.max(upload.width, upload.height) : 0;
}

/** Whether a listing's file is smaller than a sold file must be now. */
export function isUndersized(
  listing: Pick<ListingRow, "width" | "height">,
  uploadLongEdge: number,
): boolean {
  return Math.max(listing.width, listing.height) < saleLongEdge(uploadLongEdge);
}

/** The columns a listing keeps of its snapshot. */
export function snapshotColumns(snapshot: SaleSnapshot, sourceFileKey: string) {
  return {
    file_key: snapshot.fileKey,
    file_mime_type: snapshot.mimeType,
    source_file_key: sourceFileKey,
    width: snapshot.width,
    height: snapshot.height,
    preview_key: snapshot.previewKey,
    source_type: snapshot.sourceType,
    upscaled_by: snapshot.upscaledBy,
    native_width: snapshot.native?.width ?? null,
    native_height: snapshot.native?.height ?? null,
  };
}

/** Removes a listing's replaced preview, and its replaced clean file unless an order or a listing refers to it. */
export async function removeReplacedFiles(
  db: DB,
  store: FileStore,
  old: Pick<ListingRow, "file_key" | "preview_key">,
) {
  await store.remove(old.preview_key);
  const sold = await db
    .selectFrom("order_items")
    .select("id")
    .where("file_key", "=", old.file_key)
    .executeTakeFirst();
  const stillListed = await db
    .selectFrom("listings")
    .select("id")
    .where("file_key", "=", old.file_key)
    .executeTakeFirst();
  if (!sold && !stillListed) await store.remove(old.file_key);
}

/**
 * Listings made before sold files had a size (active ones whose file is under
 * SALE_MIN_LONG_EDGE on both edges): each gets its file upscaled from its own
 * snapshot, as a new listing would, a few per run (the periodic
 * "enlarge-small-listings" task). A listing changed meanwhile keeps its change;
 * a file sold before stays what its buyers bought. Answers how many were enlarged.
 */
export async function enlargeUndersizedListings(
  db: DB,
  store: FileStore,
  args: SaleFileMaking & { limit?: number },
): Promise<number> {
  const rows = await db
    .selectFrom("listings")
    .selectAll()
    .where("status", "=", "active")
    .where("width", "<", SALE_MIN_LONG_EDGE)
    .where("height", "<", SALE_MIN_LONG_EDGE)
    .orderBy("created_at")
    .orderBy("id")
    .limit(args.limit ?? 20)
    .execute();
  let enlarged = 0;
  for (const row of rows) {
    const snapshot = await snapshotSaleFiles(
      store,
      {
        key: row.file_key,
        uploadLongEdge: await uploadLongEdgeOf(db, row.stylized_image_id),
        upscaledBy: row.upscaled_by,
        native:
          row.native_width && row.native_height
            ? { width: row.native_width, height: row.native_height }
            : null,
      },
      args,
    ).catch((error: unknown) => {
      console.warn(`Listing ${row.id}: its file could not be enlarged to its sale size:`, error);
      return null;
    });
    if (!snapshot) continue;
    const updated = await db
      .updateTable("listings")
      .set({
        ...snapshotColumns(snapshot, row.source_file_key),
        updated_at: args.now.toISOString(),
      })
      .where("id", "=", row.id)
      .where("file_key", "=", row.file_key)
      .where("preview_key", "=", row.preview_key)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      await Promise.all([store.remove(snapshot.fileKey), store.remove(snapshot.previewKey)]);
      continue;
    }
    await removeReplacedFiles(db, store, row);
    enlarged += 1;
  }
  return enlarged;
}
