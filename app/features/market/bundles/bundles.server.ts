import type { BundleRow } from "#db/schema";
import type { BundleItemView, BundleView } from "~/features/market/bundles/types";
import type { DB } from "~/infra/db.server";
import { badRequest, notFound } from "~/infra/errors.server";
import { newId } from "~/infra/ids.server";
import { publicMediaUrl } from "~/infra/signed-urls.server";
import { formatMoney } from "~/lib/money";
import { publiclyListed } from "~/features/market/catalog/listing-visibility.server";
import {
  MAX_BUNDLE_ITEMS,
  MIN_BUNDLE_ITEMS,
  BUNDLE_ITEM_COUNT_ERROR,
} from "~/features/market/bundles/bundle-schema";
import { splitBundlePrice } from "~/features/market/bundles/price-split";
import { inCartOrder } from "~/features/market/checkout/cart-availability.server";

/**
 * Bundles (docs/decisions/098): a creator's 2 to 10 live listings sold
 * together at a price below their sum. A bundle is for sale while it is
 * active and every one of its listings is publicly listed; withdrawing any of
 * them withdraws it for good (bundle-withdrawal.server.ts). Bought, it is an
 * order item per listing, each priced at its part of the bundle's price.
 */

/** The bundle's public address (its page). */
export function bundleUrl(origin: string, bundleId: string): string {
  return `${origin}/bundles/${encodeURIComponent(bundleId)}`;
}

/** Makes a bundle of the creator's own live listings; 404 for any id that is not one, 400 for a price not below their sum. */
export async function createBundle(
  db: DB,
  args: { userId: string; title: string; listingIds: string[]; priceCents: number; now: Date },
): Promise<BundleRow> {
  const ids = args.listingIds;
  if (ids.length < MIN_BUNDLE_ITEMS || ids.length > MAX_BUNDLE_ITEMS)
    throw badRequest(BUNDLE_ITEM_COUNT_ERROR, { listingIds: [BUNDLE_ITEM_COUNT_ERROR] });
  if (new Set(ids).size !== ids.length) {
    const message = "Each listing can be in a bundle once.";
    throw badRequest(message, { listingIds: [message] });
  }
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom("listings")
      .select(["id", "price_cents"])
      .where("id", "in", ids)
      .where("user_id", "=", args.userId)
      .where("status", "=", "active")
      .where("hidden_at", "is", null)
      .execute();
    if (rows.length !== ids.length) {
      // Someone else's listing is not found, as withdrawing it would be; so is a withdrawn one.
      throw notFound("Listing not found: a bundle holds only your own live listings.");
    }
    const sumCents = rows.reduce((sum, row) => sum + row.price_cents, 0);
    if (args.priceCents >= sumCents) {
      const message = `A bundle's price must be below the sum of its items' prices (${formatMoney(sumCents)}).`;
      throw badRequest(message, { price: [message] });
    }
    const stamp = args.now.toISOString();
    const bundle: BundleRow = {
      id: newId(),
      user_id: args.userId,
      title: args.title,
      price_cents: args.priceCents,
      status: "active",
      created_at: stamp,
      updated_at: stamp,
    };
    await trx.insertInto("bundles").values(bundle).execute();
    await trx
      .insertInto("bundle_items")
      .values(
        ids.map((listingId, position) => ({
          bundle_id: bundle.id,
          listing_id: listingId,
          position,
        })),
      )
      .execute();
    return bundle;
  });
}

/** The creator withdraws one of their bundles; another creator's (or an unknown one) is a 404. */
export async function withdrawBundle(
  db: DB,
  args: { userId: string; bundleId: string; now: Date },
): Promise<BundleRow> {
  const bundle = await db
    .updateTable("bundles")
    .set({ status: "withdrawn", updated_at: args.now.toISOString() })
    .where("id", "=", args.bundleId)
    .where("user_id", "=", args.userId)
    .returningAll()
    .executeTakeFirst();
  if (!bundle) throw notFound("Bundle not found");
  return bundle;
}

async function itemsOfBundles(db: DB, bundleIds: readonly string[]) {
  if (bundleIds.length === 0) return new Map<string, BundleItemView[]>();
  const rows = await db
    .selectFrom("bundle_items as b")
    .innerJoin("listings as l", "l.id", "b.listing_id")
    .innerJoin("users as u", "u.id", "l.user_id")
    .select([
      "b.bundle_id",
      "b.listing_id",
      "l.title",
      "l.style",
      "l.price_cents",
      "l.preview_key",
      publiclyListed.as("listed"),
    ])
    .where("b.bundle_id", "in", [...bundleIds])
    .orderBy("b.bundle_id")
    .orderBy("b.position")
    .execute();
  const byBundle = new Map<string, BundleItemView[]>();
  for (const row of rows) {
    const live = Boolean(row.listed);
    byBundle.set(row.bundle_id, [
      ...(byBundle.get(row.bundle_id) ?? []),
      {
        listingId: row.listing_id,
        title: row.title,
        style: row.style,
        priceCents: row.price_cents,
        previewUrl: live ? publicMediaUrl(row.preview_key) : null,
        live,
      },
    ]);
  }
  return byBundle;
}

async function bundleViews(
  db: DB,
  origin: string,
  filter: { bundleIds?: readonly string[]; creatorId?: string; activeOnly?: boolean },
): Promise<BundleView[]> {
  let query = db
    .selectFrom("bundles as b")
    .innerJoin("users as u", "u.id", "b.user_id")
    .select([
      "b.id",
      "b.title",
      "b.price_cents",
      "b.status",
      "b.user_id",
      "b.created_at",
      "u.first_name",
      "u.handle",
      "u.banned",
    ])
    .where("u.erased_at", "is", null);
  if (filter.bundleIds) query = query.where("b.id", "in", [...filter.bundleIds]);
  if (filter.creatorId) query = query.where("b.user_id", "=", filter.creatorId);
  if (filter.activeOnly) query = query.where("b.status", "=", "active");
  const rows = await query.orderBy("b.created_at", "desc").orderBy("b.id").execute();
  const items = await itemsOfBundles(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const bundleItems = items.get(row.id) ?? [];
    const sumCents = bundleItems.reduce((sum, item) => sum + item.priceCents, 0);
    return {
      id: row.id,
      title: row.title,
      url: bundleUrl(origin, row.id),
      available:
        row.status === "active" &&
        row.banned === 0 &&
        bundleItems.length >= MIN_BUNDLE_ITEMS &&
        bundleItems.every((item) => item.live),
      status: row.status,
      creator: { id: row.user_id, name: row.first_name, handle: row.handle },
      items: bundleItems,
      sumCents,
      priceCents: row.price_cents,
      savingCents: Math.max(0, sumCents - row.price_cents),
    };
  });
}

/** The bundle's page: null for an unknown bundle (or one whose creator is gone); a withdrawn one says so. */
export async function bundlePage(
  db: DB,
  bundleId: string,
  origin: string,
): Promise<BundleView | null> {
  const [view] = await bundleViews(db, origin, { bundleIds: [bundleId] });
  return view ?? null;
}

/** The bundles for sale now of a creator (their storefront's cards), newest first. */
export async function availableBundlesOfCreator(
  db: DB,
  creatorId: string,
  origin: string,
): Promise<BundleView[]> {
  const views = await bundleViews(db, origin, { creatorId, activeOnly: true });
  return views.filter((view) => view.available);
}

/** All of the creator's bundles, newest first (My listings). */
export function bundlesOfCreator(db: DB, creatorId: string, origin: string): Promise<BundleView[]> {
  return bundleViews(db, origin, { creatorId });
}

/** The bundles among `bundleIds` for sale now, by id (a cart's lines); the missing ones are not available. */
export async function availableBundlesById(
  db: DB,
  bundleIds: readonly string[],
  origin: string,
): Promise<Map<string, BundleView>> {
  if (bundleIds.length === 0) return new Map();
  const views = await bundleViews(db, origin, { bundleIds, activeOnly: true });
  return new Map(views.filter((view) => view.available).map((view) => [view.id, view]));
}

/** One listing of a bundle in an order: what an order item copies, priced at its part of the bundle's price. */
export interface BundledListing {
  id: string;
  user_id: string;
  title: string;
  style: string;
  /** The item's part of the bundle's price (splitBundlePrice). */
  price_cents: number;
  file_key: string;
  file_mime_type: string;
  preview_key: string;
}

export interface PurchasableBundle {
  id: string;
  title: string;
  priceCents: number;
  listings: BundledListing[];
}

/**
 * The bundles of a cart, each for sale now with its listings priced at their
 * parts of the bundle's price (read inside the order's transaction); otherwise
 * a 400 naming them, as a listing no longer for sale is.
 */
export async function purchasableBundles(
  db: DB,
  bundleIds: readonly string[],
): Promise<PurchasableBundle[]> {
  const ids = [...new Set(bundleIds)];
  if (ids.length === 0) return [];
  const bundles = await db
    .selectFrom("bundles as b")
    .innerJoin("users as u", "u.id", "b.user_id")
    .select(["b.id", "b.title", "b.price_cents"])
    .where("b.id", "in", ids)
    .where("b.status", "=", "active")
    .where("u.banned", "=", 0)
    .where("u.erased_at", "is", null)
    .execute();
  const rows = await db
    .selectFrom("bundle_items as b")
    .innerJoin("listings as l", "l.id", "b.listing_id")
    .innerJoin("users as u", "u.id", "l.user_id")
    .select([
      "b.bundle_id",
      "l.id",
      "l.user_id",
      "l.title",
      "l.style",
      "l.price_cents",
      "l.file_key",
      "l.file_mime_type",
      "l.preview_key",
      publiclyListed.as("listed"),
    ])
    .where("b.bundle_id", "in", ids)
    .orderBy("b.position")
    .execute();
  const found = new Map<string, PurchasableBundle>();
  for (const bundle of bundles) {
    const listings = rows.filter((row) => row.bundle_id === bundle.id);
    if (listings.length < MIN_BUNDLE_ITEMS || !listings.every((row) => Boolean(row.listed)))
      continue;
    const parts = splitBundlePrice(
      bundle.price_cents,
      listings.map((row) => row.price_cents),
    );
    found.set(bundle.id, {
      id: bundle.id,
      title: bundle.title,
      priceCents: bundle.price_cents,
      listings: listings.map((row, index) => ({
        id: row.id,
        user_id: row.user_id,
        title: row.title,
        style: row.style,
        price_cents: parts[index],
        file_key: row.file_key,
        file_mime_type: row.file_mime_type,
        preview_key: row.preview_key,
      })),
    });
  }
  return inCartOrder(ids, found, "bundle");
}

/** The erasure job's part: the creator's bundles go (an order item keeps only a bought bundle's id). */
export async function deleteBundlesOfCreator(db: DB, userId: string): Promise<void> {
  await db
    .deleteFrom("bundle_items")
    .where("bundle_id", "in", (eb) =>
      eb.selectFrom("bundles").select("id").where("user_id", "=", userId),
    )
    .execute();
  await db.deleteFrom("bundles").where("user_id", "=", userId).execute();
}

/** The creator's bundles as their data export gives them. */
export async function bundlesForExport(db: DB, userId: string) {
  const bundles = await db
    .selectFrom("bundles")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();
  const items = await db
    .selectFrom("bundle_items")
    .select(["bundle_id", "listing_id", "position"])
    .where("bundle_id", "in", bundles.length > 0 ? bundles.map((bundle) => bundle.id) : [""])
    .orderBy("position")
    .execute();
  return bundles.map((bundle) => ({
    id: bundle.id,
    title: bundle.title,
    priceCents: bundle.price_cents,
    status: bundle.status,
    createdAt: bundle.created_at,
    updatedAt: bundle.updated_at,
    listingIds: items.filter((item) => item.bundle_id === bundle.id).map((item) => item.listing_id),
  }));
}
