import type { ListingRow, StylizedImageRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { isUniqueViolation } from "~/infra/database-errors.server";
import type { FileStore } from "~/infra/file-store.server";
import { newId } from "~/infra/ids.server";
import { badRequest, conflict, notFound } from "~/infra/errors.server";
import { publicMediaUrl } from "~/infra/signed-urls.server";
import { DEFAULT_PRICE } from "~/lib/styles";
import { centsToPriceString } from "~/lib/money";
import type { ListingInput } from "~/features/market/catalog/listing-schema";
import { tierPriceTooLow } from "~/features/market/catalog/listing-schema";
import { forgetSocialCard } from "~/features/market/catalog/social-card.server";
import { socialCardKey } from "~/lib/image-variants";
import type { Upscaler } from "~/engines/upscaling/upscaler.server";
import { localUpscaler } from "~/engines/upscaling/upscaler.server";
import { ownStylizedImage } from "~/features/studio/public.server";
import { withdrawBundlesOfListings } from "~/features/market/bundles/bundle-withdrawal.server";
import {
  isUndersized,
  removeReplacedFiles,
  snapshotColumns,
  snapshotSaleFiles,
  uploadLongEdgeOf,
} from "~/features/market/catalog/sale-file.server";
import type { ContentCredentials } from "~/engines/provenance/content-credentials.server";

/**
 * Listings on the product's own marketplace. A listing snapshots the clean file
 * it sells (under listings/, at its sale size: sale-file.server.ts) and its
 * public watermarked preview (under previews/) when it is made, so the creator
 * may later delete or re-optimize the stylized image while buyers keep what
 * they paid for.
 */

/**
 * The file published to the other platforms (Shopify, Adobe Stock…): the
 * optimized version when it was made without a watermark (the creator's
 * chosen final form), otherwise the clean styled image. The product's own
 * marketplace always sells the full-size styled image (listStylizedImage).
 */
export function sellableFileKey(image: StylizedImageRow): string | null {
  if (image.optimized_file_key && !image.watermark) return image.optimized_file_key;
  return image.file_key;
}

export interface ListOutcome {
  listing: ListingRow;
  created: boolean;
}

/**
 * Creates the marketplace listing of a completed stylized image, or updates
 * the active one in place (one active listing per stylized image).
 */
export async function listStylizedImage(
  db: DB,
  store: FileStore,
  args: {
    userId: string;
    input: ListingInput;
    now: Date;
    /** Enlarges a file smaller than its sale size (default: the local Lanczos-3 resize; selectUpscaler picks fal.ai's with FAL_KEY). */
    upscaler?: Upscaler;
    /** Signs the sold file's Content Credentials (decision 095) when it is not a signed file's byte-for-byte copy. */
    credentials: ContentCredentials;
  },
): Promise<ListOutcome> {
  const { userId, input, now } = args;
  const image = await ownStylizedImage(db, userId, input.stylizedImageId);
  if (!image) throw notFound("Stylized image not found");
  if (await soldExclusively(db, image.id)) throw conflict(SOLD_EXCLUSIVELY);
  // Buyers get the full-size styled image; the optimized copy is the creator's (their download, the other platforms).
  const sourceKey = image.status === "completed" ? image.file_key : null;
  if (!sourceKey) throw badRequest("Only a completed stylized image can be listed");

  const existing = await activeListingForStylizedImage(db, image.id);
  const uploadLongEdge = await uploadLongEdgeOf(db, image.id);
  // A listing keeps its files unless its image changed or its file is smaller than a sold file must be now.
  const snapshot =
    existing && existing.source_file_key === sourceKey && !isUndersized(existing, uploadLongEdge)
      ? null
      : await snapshotSaleFiles(
          store,
          {
            key: sourceKey,
            uploadLongEdge,
            upscaledBy: image.upscaled_by,
            native:
              image.native_width && image.native_height
                ? { width: image.native_width, height: image.native_height }
                : null,
          },
          { upscaler: args.upscaler ?? localUpscaler, credentials: args.credentials, now },
        ).catch((error: unknown) => {
          if (error && typeof error === "object" && "code" in error && error.code === "ENOENT") {
            throw badRequest("The image file is missing; please generate the style again");
          }
          throw error;
        });

  const stamp = now.toISOString();
  const priceCents =
    (input.price !== undefined ? Math.round(input.price * 100) : undefined) ??
    existing?.price_cents ??
    image.price_cents ??
    DEFAULT_PRICE * 100;
  const fields = {
    title: input.title,
    description: input.description,
    price_cents: priceCents,
    // Absent: the tier is not offered (decision 101); never below the Standard price.
    extended_price_cents: tierPriceCents(input.extendedPrice, priceCents, "Extended"),
    exclusive_price_cents: tierPriceCents(input.exclusivePrice, priceCents, "Exclusive"),
    tags: JSON.stringify(input.tags),
    licensing_enabled: boolFlag(
      input.licensingEnabled,
      existing?.licensing_enabled ?? image.licensing_enabled,
    ),
    nft_enabled: boolFlag(input.nftEnabled, existing?.nft_enabled ?? image.nft_enabled),
    style: image.style,
    updated_at: stamp,
    ...(snapshot ? snapshotColumns(snapshot, sourceKey) : {}),
  };

  try {
    if (existing) {
      const listing = await db
        .updateTable("listings")
        .set(fields)
        .where("id", "=", existing.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (snapshot) await removeReplacedFiles(db, store, existing);
      else if (listing.title !== existing.title || listing.price_cents !== existing.price_cents) {
        // The social card shows the title and price: the old one goes, the listing page makes the new one.
        await store.remove(socialCardKey(existing.preview_key));
        forgetSocialCard(existing.preview_key);
      }
      return { listing, created: false };
    }
    if (!snapshot) throw new Error("A new listing needs its files");
    const listing = await db
      .insertInto("listings")
      .values({
        id: newId(),
        user_id: userId,
        stylized_image_id: image.id,
        status: "active",
        view_count: 0,
        created_at: stamp,
        ...fields,
        ...snapshotColumns(snapshot, sourceKey),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { listing, created: true };
  } catch (error) {
    // Lost a race with a concurrent listing of the same image: the other one stands, update it.
    if (!existing && isUniqueViolation(error, { table: "listings", column: "stylized_image_id" })) {
      if (snapshot)
        await Promise.all([store.remove(snapshot.fileKey), store.remove(snapshot.previewKey)]);
      return listStylizedImage(db, store, args);
    }
    throw error;
  }
}

/** An Extended or Exclusive price in cents, or null when not offered; below the Standard price is a 400. */
function tierPriceCents(
  dollars: number | undefined,
  standardCents: number,
  tier: "Extended" | "Exclusive",
): number | null {
  if (dollars === undefined) return null;
  const cents = Math.round(dollars * 100);
  if (cents < standardCents)
    throw badRequest(tierPriceTooLow(tier), {
      [`${tier.toLowerCase()}Price`]: [tierPriceTooLow(tier)],
    });
  return cents;
}

/** Why an image sold with an Exclusive licence cannot be listed or published again (decision 101). */
export const SOLD_EXCLUSIVELY =
  "This image was sold with an Exclusive license, so it cannot be listed or published again.";

/** Whether an Exclusive licence of this stylized image was sold (then it is never listed again). */
export async function soldExclusively(db: DB, stylizedImageId: string): Promise<boolean> {
  const row = await db
    .selectFrom("listings")
    .select("id")
    .where("stylized_image_id", "=", stylizedImageId)
    .where("exclusive_sold_at", "is not", null)
    .executeTakeFirst();
  return row !== undefined;
}

function boolFlag(value: boolean | undefined, fallback: number): number {
  return value === undefined ? (fallback ? 1 : 0) : value ? 1 : 0;
}

/** One of the user's own stylized images (undefined for another user's or an unknown id): the studio answers. */
export { ownStylizedImage };

/** Which of these listings are active (on the marketplace). */
export async function activeListingIdsAmong(
  db: DB,
  listingIds: readonly string[],
): Promise<Set<string>> {
  if (listingIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("listings")
    .select("id")
    .where("id", "in", listingIds)
    .where("status", "=", "active")
    .execute();
  return new Set(rows.map((row) => row.id));
}

export function activeListingForStylizedImage(
  db: DB,
  stylizedImageId: string,
): Promise<ListingRow | undefined> {
  return db
    .selectFrom("listings")
    .selectAll()
    .where("stylized_image_id", "=", stylizedImageId)
    .where("status", "=", "active")
    .executeTakeFirst();
}

/**
 * Withdraws the listings of a stylized image (for the studio's delete). The
 * public preview goes at once; the clean file stays while any order refers to
 * it, so buyers (also those mid-checkout) can still download what they bought.
 * Call it before deleting the stylized image row. Returns how many were withdrawn.
 */
export async function withdrawListingsForStylizedImage(
  db: DB,
  stylizedImageId: string,
  options: { store?: FileStore; now?: Date } = {},
): Promise<number> {
  const listings = await db
    .updateTable("listings")
    .set({ status: "withdrawn", updated_at: (options.now ?? new Date()).toISOString() })
    .where("stylized_image_id", "=", stylizedImageId)
    .where("status", "=", "active")
    .returning(["id", "file_key", "preview_key"])
    .execute();
  await withdrawBundlesOfListings(
    db,
    listings.map((listing) => listing.id),
    options.now ?? new Date(),
  );
  if (options.store) {
    for (const listing of listings) await removeWithdrawnFiles(db, options.store, listing);
  }
  return listings.length;
}

/** Withdraws one of the creator's own listings; another user's listing is a 404. */
export async function withdrawListing(
  db: DB,
  args: { userId: string; listingId: string; now: Date; store?: FileStore },
): Promise<ListingRow> {
  const listing = await db
    .updateTable("listings")
    .set({ status: "withdrawn", updated_at: args.now.toISOString() })
    .where("id", "=", args.listingId)
    .where("user_id", "=", args.userId)
    .returningAll()
    .executeTakeFirst();
  if (!listing) throw notFound("Listing not found");
  await withdrawBundlesOfListings(db, [listing.id], args.now);
  if (args.store) await removeWithdrawnFiles(db, args.store, listing);
  return listing;
}

/**
 * Withdraws what an upheld report names (one listing, or every active listing
 * of a storefront's creator, hidden or not) as its creator's own withdrawal
 * would: it leaves every public page and API, and its preview goes (sold
 * copies stay downloadable). Answers the listings withdrawn.
 */
export async function withdrawReportedListings(
  db: DB,
  target: { listingId: string | null; creatorId: string },
  options: { store: FileStore; now: Date },
): Promise<{ id: string; stylizedImageId: string | null; title: string }[]> {
  let update = db
    .updateTable("listings")
    .set({ status: "withdrawn", hidden_at: null, updated_at: options.now.toISOString() })
    .where("user_id", "=", target.creatorId)
    .where("status", "=", "active");
  if (target.listingId) update = update.where("id", "=", target.listingId);
  const listings = await update
    .returning(["id", "stylized_image_id", "title", "file_key", "preview_key"])
    .execute();
  await withdrawBundlesOfListings(
    db,
    listings.map((listing) => listing.id),
    options.now,
  );
  for (const listing of listings) await removeWithdrawnFiles(db, options.store, listing);
  return listings.map((listing) => ({
    id: listing.id,
    stylizedImageId: listing.stylized_image_id,
    title: listing.title,
  }));
}

async function removeWithdrawnFiles(
  db: DB,
  store: FileStore,
  listing: Pick<ListingRow, "file_key" | "preview_key">,
) {
  await store.remove(listing.preview_key);
  const sold = await db
    .selectFrom("order_items")
    .select("id")
    .where("file_key", "=", listing.file_key)
    .executeTakeFirst();
  if (!sold) await store.remove(listing.file_key);
}

/** A listing as its creator sees it, with its state on each platform (only the own marketplace here). */
export interface CreatorListing {
  id: string;
  stylizedImageId: string | null;
  title: string;
  description: string;
  style: string;
  price: string;
  /** The Extended and Exclusive licences' prices (dollars), null when the listing does not offer them. */
  extendedPrice: string | null;
  exclusivePrice: string | null;
  tags: string[];
  licensingEnabled: boolean;
  nftEnabled: boolean;
  status: ListingRow["status"];
  previewUrl: string | null;
  views: number;
  createdAt: string;
  updatedAt: string;
  platforms: { platform: string; status: "live" | "withdrawn"; url: string | null }[];
}

/** A listing's own page (/marketplace/{listingId}): the link a creator shares. */
export function marketplaceListingUrl(origin: string, listingId: string): string {
  return `${origin}/marketplace/${encodeURIComponent(listingId)}`;
}

export function parseTags(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value)
      ? value.filter((tag): tag is string => typeof tag === "string")
      : [];
  } catch {
    return [];
  }
}

/** A listing's Extended and Exclusive prices in dollars ("40"), null for a tier it does not offer. */
export function tierPricesOf(
  row: Pick<ListingRow, "extended_price_cents" | "exclusive_price_cents">,
): { extendedPrice: string | null; exclusivePrice: string | null } {
  const dollars = (cents: number | null) => (cents === null ? null : centsToPriceString(cents));
  return {
    extendedPrice: dollars(row.extended_price_cents),
    exclusivePrice: dollars(row.exclusive_price_cents),
  };
}

export function toCreatorListing(row: ListingRow, origin: string): CreatorListing {
  const live = row.status === "active";
  return {
    id: row.id,
    stylizedImageId: row.stylized_image_id,
    title: row.title,
    description: row.description,
    style: row.style,
    price: centsToPriceString(row.price_cents),
    ...tierPricesOf(row),
    tags: parseTags(row.tags),
    licensingEnabled: row.licensing_enabled === 1,
    nftEnabled: row.nft_enabled === 1,
    status: row.status,
    previewUrl: live ? publicMediaUrl(row.preview_key) : null,
    views: row.view_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    platforms: [
      {
        platform: "marketplace",
        status: live ? "live" : "withdrawn",
        url: live ? marketplaceListingUrl(origin, row.id) : null,
      },
    ],
  };
}

/** The creator's listings, newest first (active and withdrawn). */
export function listingsOfCreator(db: DB, userId: string): Promise<ListingRow[]> {
  return db
    .selectFrom("listings")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
}
