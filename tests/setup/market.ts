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
import {
  contentCredentialsFor,
  originalIngredient,
  styledFileFacts,
} from "~/engines/provenance/content-credentials.server";
import { getConfig } from "~/infra/config.server";
import { createTestUser } from "#tests/setup/accounts";

/** Test data for the selling side: completed stylized images and their listings. */

const FIXTURES = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../fixtures");
const id = () => crypto.randomBytes(9).toString("base64url");

/**
 * The fixture portrait as a styled JPEG of `size` px, signed as the styling job signs it (its
 * Content Credentials naming the portrait by hash) unless told, made once per size and process.
 */
const styledFixtures = new Map<string, Promise<Buffer>>();
function styledFixture(size: number, signed: boolean): Promise<Buffer> {
  const key = `${size}:${signed}`;
  let made = styledFixtures.get(key);
  if (!made) {
    made = (async () => {
      const original = fs.readFileSync(path.join(FIXTURES, "portrait.png"));
      const unsigned = await sharp(original).resize(size, size).jpeg({ quality: 90 }).toBuffer();
      if (!signed) return unsigned;
      return contentCredentialsFor(getConfig()).sign(
        unsigned,
        styledFileFacts(unsigned, { original: originalIngredient(original), when: new Date() }),
      );
    })();
    styledFixtures.set(key, made);
  }
  return made;
}

/**
 * A completed stylized image of the user's, with a real JPEG (1024 px unless told) on the file
 * store, made from a 512 px upload, signed as the styling job signs it (its Content Credentials
 * naming the original by hash; `signed: false` for a file made before the server signed them).
 * Its original's likeness is `self` unless told (null: unverified), so it may be sold (decision
 * record 085): only faces that agreed are.
 */
export async function createStylizedImage(
  userId: string,
  options: {
    style?: string;
    status?: StylizedImageRow["status"];
    priceCents?: number | null;
    likeness?: ImageLikeness | null;
    /** The styled file's width and height (2048: already a sold file's size, docs/decisions/092). */
    size?: number;
    signed?: boolean;
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
  const size = options.size ?? 1024;
  const styled = await styledFixture(size, options.signed !== false);
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
      width: size,
      height: size,
      bytes: styled.length,
      price_cents: options.priceCents ?? null,
      created_at: now,
      updated_at: now,
      completed_at: status === "completed" ? now : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A listed image: a completed stylized image and its marketplace listing. Its styled file is
 * 2048 px, a sold file's size, so listing it copies the file as it is (no upscaling).
 */
export async function createListing(
  userId: string,
  options: {
    style?: string;
    title?: string;
    price?: number | string;
    tags?: string[] | string;
    description?: string;
    /** The Extended and Exclusive licences' prices (decision 101); not offered when left out. */
    extendedPrice?: number;
    exclusivePrice?: number;
  } = {},
): Promise<{ listing: ListingRow; stylized: StylizedImageRow }> {
  const stylized = await createStylizedImage(userId, { style: options.style, size: 2048 });
  const input = listingInputSchema.parse({
    stylizedImageId: stylized.id,
    title: options.title ?? "Test Portrait",
    description: options.description ?? "A test portrait",
    price: options.price ?? 25,
    tags: options.tags ?? "test, portrait",
    extendedPrice: options.extendedPrice,
    exclusivePrice: options.exclusivePrice,
  });
  const { listing } = await listStylizedImage(getDb(), getFileStore(), {
    credentials: contentCredentialsFor(getConfig()),
    userId,
    input,
    now: new Date(),
  });
  return { listing, stylized };
}

/** A new creator with a listing at each of these prices (dollars), titled "Item 1", "Item 2"… */
export async function creatorWithListings(prices: (number | string)[]) {
  const creator = await createTestUser();
  const listings = [];
  for (const [index, price] of prices.entries())
    listings.push(
      (await createListing(creator.user.id, { price, title: `Item ${index + 1}` })).listing,
    );
  return { creator, listings };
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
