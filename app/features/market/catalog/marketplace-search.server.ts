import crypto from "node:crypto";
import { sql } from "kysely";
import type { DB } from "~/infra/db.server";
import { publiclyListed } from "~/features/market/catalog/listing-visibility.server";
import { badRequest } from "~/infra/errors.server";
import { publicMediaUrl } from "~/infra/signed-urls.server";
import { centsToPriceString } from "~/lib/money";
import type { AiLabel } from "~/lib/ai-label";
import { aiLabelOf } from "~/engines/styling/ai-disclosure.server";
import { parseTags } from "~/features/market/catalog/listings.server";
import { previewWidthOf } from "~/features/market/catalog/listing-preview.server";
import {
  searchPageMatches,
  type SearchPageFilters,
} from "~/features/market/catalog/listing-search-index.server";
import type { LicenseType } from "~/lib/license-terms";
import { offeredLicenses } from "~/features/market/catalog/license-tiers";

/**
 * Browsing the public marketplace: active listings of creators who are not
 * banned, newest first, with keyset pagination on (created_at, id) so page 500
 * costs what page 1 costs. The indexes listings(status, created_at, id) and
 * listings(status, style, created_at, id) serve the order directly. A search
 * (?q=) takes its matches from the search index (listing-search-index.server.ts),
 * at most SEARCH_MATCH_CAP of them, and applies the same filters and order.
 */
export interface MarketplaceItem {
  id: string;
  title: string;
  description: string;
  style: string;
  price: string;
  priceCents: number;
  previewUrl: string;
  /** The preview's width in pixels (for its srcset). */
  previewWidth: number;
  /** The pixel size of the file a buyer gets (the listing's snapshot of the styled image). */
  width: number;
  height: number;
  creator: { id: string; firstName: string };
  tags: string[];
  licensingEnabled: boolean;
  createdAt: string;
  /** How the file was made, as buyers read it: "AI-generated" (a generative engine) or "AI-edited" (the built-in engine's composite). */
  aiLabel: AiLabel;
  /** The licence tiers it is sold with and their prices (decision 101): Standard (at `price`) first, then Extended and Exclusive when offered. */
  licenses: { type: LicenseType; price: string }[];
}

export interface MarketplacePage {
  items: MarketplaceItem[];
  nextCursor: string | null;
}

export interface MarketplaceQuery {
  style?: string;
  q?: string;
  cursor?: string;
  limit: number;
  /** Only this listing (the link a creator shares). */
  listingId?: string;
  /** Only this creator's listings (their storefront). */
  creatorId?: string;
}

export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString("base64url");
}

export function decodeCursor(cursor: string): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      value.every((part) => typeof part === "string")
    ) {
      return value as [string, string];
    }
  } catch {
    // fall through
  }
  throw badRequest("Invalid cursor", { cursor: ["Invalid cursor"] });
}

/** Listings joined with their creators. */
const allRows = (db: DB) =>
  db.selectFrom("listings as l").innerJoin("users as u", "u.id", "l.user_id");

/**
 * The rows a page is taken from: every listing, or with a search only its
 * (capped) matches, on PostgreSQL already narrowed to the page (searchPageMatches).
 */
function marketplaceRows(
  db: DB,
  q: string | undefined,
  page: SearchPageFilters,
): ReturnType<typeof allRows> {
  if (!q) return allRows(db);
  // CROSS JOIN keeps the matches as SQLite's outer loop: each is looked up by
  // id, instead of every active listing being checked against them.
  const searched = db
    .selectFrom(searchPageMatches(db, q, page))
    .crossJoin("listings as l")
    .whereRef("l.id", "=", "matches.listing_id")
    .innerJoin("users as u", "u.id", "l.user_id");
  // The same columns and tables as allRows, plus the matches, which nothing after this refers to.
  return searched as unknown as ReturnType<typeof allRows>;
}

export async function browseMarketplace(db: DB, query: MarketplaceQuery): Promise<MarketplacePage> {
  const rows = await marketplacePageQuery(db, query).execute();
  const shown = rows.slice(0, query.limit);
  const last = shown[shown.length - 1];
  return {
    items: shown.map(toMarketplaceItem),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

/** The query of a page: its rows and one more (which tells whether a next page exists). */
export function marketplacePageQuery(db: DB, query: MarketplaceQuery) {
  const before = query.cursor ? decodeCursor(query.cursor) : undefined;
  // The same filters again below: a search's page of matches is narrowed by them on PostgreSQL only.
  const page: SearchPageFilters = {
    style: query.style,
    creatorId: query.creatorId,
    listingId: query.listingId,
    before,
    size: query.limit + 1,
  };
  let select = marketplaceRows(db, query.q?.trim(), page)
    .select(MARKETPLACE_ITEM_COLUMNS)
    .where(publiclyListed);
  if (query.listingId) select = select.where("l.id", "=", query.listingId);
  if (query.creatorId) select = select.where("l.user_id", "=", query.creatorId);
  if (query.style) select = select.where("l.style", "=", query.style);
  if (before) {
    const [createdAt, id] = before;
    select = select.where(sql<boolean>`(l.created_at, l.id) < (${createdAt}, ${id})`);
  }
  return select
    .orderBy("l.created_at", "desc")
    .orderBy("l.id", "desc")
    .limit(query.limit + 1);
}

/** The columns a marketplace item is made from (listings as l joined with users as u). */
export const MARKETPLACE_ITEM_COLUMNS = [
  "l.id",
  "l.title",
  "l.description",
  "l.style",
  "l.price_cents",
  "l.extended_price_cents",
  "l.exclusive_price_cents",
  "l.preview_key",
  "l.width",
  "l.height",
  "l.tags",
  "l.licensing_enabled",
  "l.created_at",
  "l.user_id",
  "l.source_type",
  "u.first_name",
] as const;

export function toMarketplaceItem(row: {
  id: string;
  title: string;
  description: string;
  style: string;
  price_cents: number;
  extended_price_cents: number | null;
  exclusive_price_cents: number | null;
  preview_key: string;
  width: number;
  height: number;
  tags: string;
  licensing_enabled: number;
  created_at: string;
  user_id: string;
  source_type: string;
  first_name: string;
}): MarketplaceItem {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    style: row.style,
    price: centsToPriceString(row.price_cents),
    priceCents: row.price_cents,
    previewUrl: publicMediaUrl(row.preview_key),
    previewWidth: previewWidthOf(row.width, row.height),
    width: row.width,
    height: row.height,
    creator: { id: row.user_id, firstName: row.first_name },
    tags: parseTags(row.tags),
    licensingEnabled: row.licensing_enabled === 1,
    createdAt: row.created_at,
    aiLabel: aiLabelOf(row.source_type),
    licenses: offeredLicenses(row).map((license) => ({
      type: license.type,
      price: centsToPriceString(license.priceCents),
    })),
  };
}

/** Who looks at the marketplace: a signed-in user, else the client's address (an IPv4 address or an IPv6 /64; never stored as such). */
export type MarketplaceVisitor = { userId: string } | { clientIp: string };

/** The UTC day of `now`, YYYY-MM-DD. */
export function viewDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The stored form of a visitor on a day: an HMAC under a key of the app's, so
 * a row says nothing about who looked (an address cannot be guessed back
 * without the key) and the same visitor on two days leaves unrelated hashes.
 * A visitor without an account is their address alone: what a client says of
 * itself (its User-Agent) would let one client be as many visitors as it likes.
 */
export function visitorHash(key: Buffer, visitor: MarketplaceVisitor, day: string): string {
  const who = "userId" in visitor ? `user\n${visitor.userId}` : `address\n${visitor.clientIp}`;
  return crypto.createHmac("sha256", key).update(`${day}\n${who}`).digest("base64url");
}
