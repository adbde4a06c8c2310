import type { DB } from "~/infra/db.server";
import { listedRowsById } from "~/features/market/catalog/listed-rows.server";
import { publicMediaUrl } from "~/infra/signed-urls.server";
import { centsToPriceString } from "~/lib/money";
import { availableBundlesById } from "~/features/market/bundles/bundles.server";
import { BUNDLE_CART_PREFIX, splitCartEntries } from "~/features/market/bundles/bundle-schema";

/** What a cart holds right now, priced from the database; ids no longer for sale are reported apart. */
export interface CartLine {
  id: string;
  title: string;
  style: string;
  price: string;
  priceCents: number;
  previewUrl: string;
  creatorFirstName: string;
  /** The pixel size of the file a buyer gets (0 for a bundle). */
  width: number;
  height: number;
  /** A bundle's line (its id is the cart entry `bundle:<id>`): how many images, their sum and its page. */
  bundle?: { itemCount: number; sumCents: number; path: string };
}

export interface CartContents {
  items: CartLine[];
  unavailable: string[];
  totalCents: number;
}

export async function cartContents(db: DB, entries: string[], origin = ""): Promise<CartContents> {
  if (entries.length === 0) return { items: [], unavailable: [], totalCents: 0 };
  const { listingIds, bundleIds } = splitCartEntries(entries);
  const byId = listingIds.length > 0 ? await listedRowsById(db, listingIds) : new Map();
  const bundles = await availableBundlesById(db, bundleIds, origin);
  const items: CartLine[] = [];
  const unavailable: string[] = [];
  for (const id of entries) {
    if (id.startsWith(BUNDLE_CART_PREFIX)) {
      const bundle = bundles.get(id.slice(BUNDLE_CART_PREFIX.length));
      if (!bundle) {
        unavailable.push(id);
        continue;
      }
      const first = bundle.items[0];
      items.push({
        id,
        title: bundle.title,
        style: first.style,
        price: centsToPriceString(bundle.priceCents),
        priceCents: bundle.priceCents,
        previewUrl: first.previewUrl ?? "",
        creatorFirstName: bundle.creator.name,
        width: 0,
        height: 0,
        bundle: {
          itemCount: bundle.items.length,
          sumCents: bundle.sumCents,
          path: `/bundles/${encodeURIComponent(bundle.id)}`,
        },
      });
      continue;
    }
    const row = byId.get(id);
    if (!row) {
      unavailable.push(id);
      continue;
    }
    items.push({
      id: row.id,
      title: row.title,
      style: row.style,
      price: centsToPriceString(row.price_cents),
      priceCents: row.price_cents,
      previewUrl: publicMediaUrl(row.preview_key),
      creatorFirstName: row.first_name,
      width: row.width,
      height: row.height,
    });
  }
  return { items, unavailable, totalCents: items.reduce((sum, item) => sum + item.priceCents, 0) };
}
