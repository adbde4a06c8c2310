import type { DB } from "~/infra/db.server";
import { publiclyListed } from "~/features/market/catalog/listing-visibility.server";
import type { MarketplaceItem } from "~/features/market/catalog/marketplace-search.server";
import {
  MARKETPLACE_ITEM_COLUMNS,
  browseMarketplace,
  toMarketplaceItem,
} from "~/features/market/catalog/marketplace-search.server";
import { marketplaceListingUrl } from "~/features/market/catalog/listings.server";
import { upscaleLabel } from "~/lib/sale-size";
import {
  SOCIAL_CARD_HEIGHT,
  SOCIAL_CARD_WIDTH,
  socialCardPath,
} from "~/features/market/catalog/social-card.server";

/**
 * The public pages of the marketplace beyond its grid: a page per live listing
 * (/marketplace/{listingId}) and a storefront per creator with a handle
 * (/creators/{handle}). Live means listed (status active) by a creator who is
 * neither banned nor erased; anything else is not found.
 */

/** How many other listings of the same creator a listing page shows. */
export const MORE_FROM_CREATOR = 6;

/** A creator as the public pages show them: first name only, as the marketplace does. */
export interface PublicCreator {
  id: string;
  name: string;
  handle: string | null;
  avatarUrl: string | null;
  bio: string | null;
  /** The storefront's absolute URL, when the creator has a handle. */
  storefrontUrl: string | null;
}

/** How the file a buyer gets was enlarged to its size, when it was (docs/decisions/092). */
export interface ListingUpscaling {
  /** As the file's metadata says it: "upscaled with Lanczos ×4.27". */
  label: string;
  /** The pixels really made before, when known. */
  from: { width: number; height: number } | null;
}

export interface ListingPageView {
  listing: MarketplaceItem & { updatedAt: string; upscaling: ListingUpscaling | null };
  creator: PublicCreator;
  more: MarketplaceItem[];
  /** The page's own absolute URL (canonical, og:url). */
  url: string;
  socialCard: { url: string; width: number; height: number; previewKey: string };
}

/** The storefront's address of a handle. */
export function storefrontUrl(origin: string, handle: string): string {
  return `${origin}/creators/${encodeURIComponent(handle)}`;
}

/** The live listing's row with its creator's public fields, or undefined. */
function liveListingRow(db: DB, listingId: string) {
  return db
    .selectFrom("listings as l")
    .innerJoin("users as u", "u.id", "l.user_id")
    .select([
      ...MARKETPLACE_ITEM_COLUMNS,
      "l.updated_at",
      "l.upscaled_by",
      "l.native_width",
      "l.native_height",
      "u.handle",
      "u.profile_image_url",
      "u.bio",
    ])
    .where("l.id", "=", listingId)
    .where(publiclyListed)
    .where("u.erased_at", "is", null)
    .executeTakeFirst();
}

/** What the listing page shows, or null when the listing is not live (unknown, withdrawn, banned or erased creator). */
export async function listingPage(
  db: DB,
  listingId: string,
  origin: string,
): Promise<ListingPageView | null> {
  const row = await liveListingRow(db, listingId);
  if (!row) return null;
  const others = await browseMarketplace(db, {
    creatorId: row.user_id,
    limit: MORE_FROM_CREATOR + 1,
  });
  return {
    listing: { ...toMarketplaceItem(row), updatedAt: row.updated_at, upscaling: upscalingOf(row) },
    creator: {
      id: row.user_id,
      name: row.first_name,
      handle: row.handle,
      avatarUrl: row.profile_image_url,
      bio: row.bio,
      storefrontUrl: row.handle ? storefrontUrl(origin, row.handle) : null,
    },
    more: others.items.filter((item) => item.id !== row.id).slice(0, MORE_FROM_CREATOR),
    url: marketplaceListingUrl(origin, row.id),
    socialCard: {
      url: siteUrl(
        origin,
        socialCardPath({
          previewKey: row.preview_key,
          title: row.title,
          priceCents: row.price_cents,
        }),
      ),
      width: SOCIAL_CARD_WIDTH,
      height: SOCIAL_CARD_HEIGHT,
      previewKey: row.preview_key,
    },
  };
}

/** A creator's public face by handle, or null (unknown handle, banned or erased creator). */
export async function creatorByHandle(
  db: DB,
  handle: string,
  origin: string,
): Promise<PublicCreator | null> {
  const row = await db
    .selectFrom("users")
    .select(["id", "first_name", "handle", "profile_image_url", "bio"])
    .where("handle", "=", handle)
    .where("banned", "=", 0)
    .where("erased_at", "is", null)
    .executeTakeFirst();
  if (!row?.handle) return null;
  return {
    id: row.id,
    name: row.first_name,
    handle: row.handle,
    avatarUrl: row.profile_image_url,
    bio: row.bio,
    storefrontUrl: storefrontUrl(origin, row.handle),
  };
}

/** What the listing page says of how its file was enlarged (nothing when it was not). */
function upscalingOf(row: {
  width: number;
  height: number;
  upscaled_by: string | null;
  native_width: number | null;
  native_height: number | null;
}): ListingUpscaling | null {
  if (!row.upscaled_by) return null;
  const from =
    row.native_width && row.native_height
      ? { width: row.native_width, height: row.native_height }
      : null;
  return { label: upscaleLabel(row.upscaled_by, row, from), from };
}

/** A site-relative path on the origin; an absolute URL (a file on the CDN) as it is. */
function siteUrl(origin: string, pathOrUrl: string): string {
  return pathOrUrl.startsWith("/") ? `${origin}${pathOrUrl}` : pathOrUrl;
}
