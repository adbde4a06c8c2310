import type { DB } from "~/infra/db.server";
import { centsToPriceString } from "~/lib/money";
import { keyExtension, type ExportedFile } from "~/lib/exported-files";
import { parseTags } from "~/features/market/catalog/listings.server";
import { followerCount } from "~/features/market/follows/follows.server";
import { bundlesForExport } from "~/features/market/bundles/bundles.server";

/**
 * The creator's own marketplace data for their data export: their listings
 * (with the file sold and the public preview of each), and their sales as the
 * creator sees them: the sold item's reference, title, price, the creator's
 * share, the date and the refund state. Nothing about the buyer (no name,
 * email, company, order or license id): those are the buyer's. Of the follows,
 * the count of confirmed followers only: their addresses are theirs. Their
 * bundles: title, price, state and the listings each holds.
 */
export interface ExportedListing {
  id: string;
  title: string;
  description: string;
  style: string;
  /** Dollars. */
  price: string;
  tags: string[];
  status: string;
  licensingEnabled: boolean;
  nftEnabled: boolean;
  width: number;
  height: number;
  views: number;
  stylizedImageId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ExportedSale {
  /** The sold item's reference (as in the earnings, the transfers and the sale notice). */
  saleReference: string;
  listingId: string;
  title: string;
  style: string;
  /** Dollars: what the buyer paid for the item. */
  price: string;
  /** Dollars: the creator's share of it. */
  share: string;
  /** Dollars: what refunds took back of the share. */
  shareReversed: string;
  /** Where the share is: owed, transferred, held or reversed; null when the ledger has no share for it. */
  shareStatus: string | null;
  date: string;
  /** none, partially_refunded, refunded or disputed. */
  refundState: "none" | "partially_refunded" | "refunded" | "disputed";
  testMode: boolean;
}

export interface ExportedBundle {
  id: string;
  title: string;
  /** Dollars. */
  price: string;
  status: string;
  /** The bundle's listings, in order. */
  listingIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface CreatorMarketExport {
  listings: ExportedListing[];
  bundles: ExportedBundle[];
  sales: ExportedSale[];
  /** How many confirmed followers the creator has: a count, never an address (the followers' own). */
  followers: { confirmed: number };
  files: ExportedFile[];
}

const SOLD_STATUSES = ["paid", "refunded", "disputed"] as const;

export async function creatorMarketExport(db: DB, userId: string): Promise<CreatorMarketExport> {
  const [listings, sales] = await Promise.all([
    db
      .selectFrom("listings")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("order_items as i")
      .innerJoin("orders as o", "o.id", "i.order_id")
      .leftJoin("earnings as e", "e.order_item_id", "i.id")
      .select([
        "i.id",
        "i.listing_id",
        "i.title",
        "i.style",
        "i.price_cents",
        "o.status",
        "o.paid_at",
        "o.created_at",
        "o.refunded_cents",
        "o.provider",
        "e.amount_cents",
        "e.creator_reversed_cents",
        "e.status as share_status",
        "e.test_mode",
      ])
      .where("i.creator_id", "=", userId)
      .where("o.status", "in", SOLD_STATUSES)
      .orderBy("o.paid_at", (order) => order.asc().nullsFirst())
      .orderBy("i.id")
      .execute(),
  ]);
  const files: ExportedFile[] = [];
  for (const listing of listings) {
    files.push({
      key: listing.file_key,
      name: `images/listings/${listing.id}.${keyExtension(listing.file_key)}`,
    });
    files.push({
      key: listing.preview_key,
      name: `images/previews/${listing.id}.${keyExtension(listing.preview_key)}`,
    });
  }
  return {
    followers: { confirmed: await followerCount(db, userId) },
    bundles: (await bundlesForExport(db, userId)).map((bundle) => ({
      id: bundle.id,
      title: bundle.title,
      price: centsToPriceString(bundle.priceCents),
      status: bundle.status,
      listingIds: bundle.listingIds,
      createdAt: bundle.createdAt,
      updatedAt: bundle.updatedAt,
    })),
    listings: listings.map((listing) => ({
      id: listing.id,
      title: listing.title,
      description: listing.description,
      style: listing.style,
      price: centsToPriceString(listing.price_cents),
      tags: parseTags(listing.tags),
      status: listing.status,
      licensingEnabled: listing.licensing_enabled === 1,
      nftEnabled: listing.nft_enabled === 1,
      width: listing.width,
      height: listing.height,
      views: listing.view_count,
      stylizedImageId: listing.stylized_image_id,
      createdAt: listing.created_at,
      updatedAt: listing.updated_at,
    })),
    sales: sales.map((sale) => ({
      saleReference: sale.id,
      listingId: sale.listing_id,
      title: sale.title,
      style: sale.style,
      price: centsToPriceString(sale.price_cents),
      share: centsToPriceString(sale.amount_cents ?? 0),
      shareReversed: centsToPriceString(sale.creator_reversed_cents ?? 0),
      shareStatus: sale.share_status ?? null,
      date: sale.paid_at ?? sale.created_at,
      refundState:
        sale.status === "refunded"
          ? "refunded"
          : sale.status === "disputed"
            ? "disputed"
            : sale.refunded_cents > 0
              ? "partially_refunded"
              : "none",
      testMode: sale.test_mode === 1 || (sale.test_mode === null && sale.provider === "test"),
    })),
    files,
  };
}
