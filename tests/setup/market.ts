import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import sharp from "sharp";
import type { ImageLikeness, ListingRow, StylizedImageRow } from "#db/schema";
import { getDb } from "~/infra/db.server";
import { getFileStore, newFileKey } from "~/infra/file-store.server";
import { listStylizedImage } from "~/features/market/catalog/listings.server";
import { listingInputSchema } from "~/features/market/catalog/listing-schema";

/** Test data for the selling side: completed stylized images and their listings. */

const FIXTURES = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../fixtures");
const id = () => crypto.randomBytes(9).toString("base64url");

/**
 * A completed stylized image of the user's, with a real JPEG (1024 px) on the file store. Its
 * original's likeness is `self` unless told (null: unverified), so it may be sold (decision
 * record 085): only faces that agreed are.
 */
export async function createStylizedImage(
  userId: string,
  options: {
    style?: string;
    status?: StylizedImageRow["status"];
    priceCents?: number | null;
    likeness?: ImageLikeness | null;
  } = {},
): Promise<StylizedImageRow> {
  const db = getDb();
  const store = getFileStore();
  const now = new Date().toISOString();
  const imageId = id();
  const originalKey = newFileKey("originals", "png");
  await store.write(originalKey, fs.readFileSync(path.join(FIXTURES, "portrait.png")));
  await db
    .insertInto("images")
    .values({
      id: imageId,
      user_id: userId,
      file_key: originalKey,
      width: 512,
      height: 512,
      bytes: 1,
      mime_type: "image/png",
      likeness: options.likeness === undefined ? "self" : options.likeness,
      created_at: now,
    })
    .execute();
  const styled = await sharp(path.join(FIXTURES, "portrait.png"))
    .resize(1024, 1024)
    .jpeg({ quality: 90 })
    .toBuffer();
  const styledKey = newFileKey("styled", "jpg");
  await store.write(styledKey, styled);
  const status = options.status ?? "completed";
  return db
    .insertInto("stylized_images")
    .values({
      id: id(),
      image_id: imageId,
      user_id: userId,
      style: options.style ?? "anime",
      status,
      provider: "local",
      file_key: status === "completed" ? styledKey : null,
      width: 1024,
      height: 1024,
      bytes: styled.length,
      price_cents: options.priceCents ?? null,
      created_at: now,
      updated_at: now,
      completed_at: status === "completed" ? now : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A listed image: a completed stylized image and its marketplace listing. */
export async function createListing(
  userId: string,
  options: {
    style?: string;
    title?: string;
    price?: number | string;
    tags?: string[] | string;
    description?: string;
  } = {},
): Promise<{ listing: ListingRow; stylized: StylizedImageRow }> {
  const stylized = await createStylizedImage(userId, { style: options.style });
  const input = listingInputSchema.parse({
    stylizedImageId: stylized.id,
    title: options.title ?? "Test Portrait",
    description: options.description ?? "A test portrait",
    price: options.price ?? 25,
    tags: options.tags ?? "test, portrait",
  });
  const { listing } = await listStylizedImage(getDb(), getFileStore(), {
    userId,
    input,
    now: new Date(),
  });
  return { listing, stylized };
}

/** What a creator fills in to publish an image (a $25 listing with licensing); `title` as given. */
export function listingContent(title = "Portrait") {
  return {
    title,
    description: "",
    priceCents: 2500,
    tags: [] as string[],
    licensingEnabled: true,
    nftEnabled: false,
  };
}
