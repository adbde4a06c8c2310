import type { DB } from "~/infra/db.server";
import { listedRowsById } from "~/features/market/catalog/listed-rows.server";
import { publicMediaUrl } from "~/infra/signed-urls.server";
import { centsToPriceString } from "~/lib/money";
import { availableBundlesById } from "~/features/market/bundles/bundles.server";
import { BUNDLE_CART_PREFIX } from "~/features/market/bundles/bundle-schema";
import { parseCartEntry } from "~/lib/cart-entries";
import { priceOfTier } from "~/features/market/catalog/license-tiers";
import type { LicenseType } from "~/lib/license-terms";

/** What a cart holds right now, priced from the database; ids no longer for sale are reported apart. */
export interface CartLine {
  /** The cart entry: a listing's id (`<id>:<tier>` for Extended or Exclusive), or `bundle:<id>`. */
  id: string;
  /** A listing's own id (null for a bundle's line). */
  listingId: string | null;
  /** The licence tier of a listing's line (decision 101); a bundle sells Standard. */
  licenseType: LicenseType;
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
  const parsed = entries.map(parseCartEntry);
  const listingIds = parsed.flatMap((entry) => (entry.kind === "listing" ? [entry.listingId] : []));
  const bundleIds = parsed.flatMap((entry) => (entry.kind === "bundle" ? [entry.bundleId] : []));
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
        listingId: null,
        licenseType: "standard",
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
    const entry = parseCartEntry(id);
    if (entry.kind !== "listing") continue;
    const row = byId.get(entry.listingId);
    // A tier the listing no longer offers is no longer for sale, as a withdrawn listing is.
    const priceCents = row ? priceOfTier(row, entry.licenseType) : null;
    if (!row || priceCents === null) {
      unavailable.push(id);
      continue;
    }
    items.push({
      id,
      listingId: row.id,
      licenseType: entry.licenseType,
      title: row.title,
      style: row.style,
      price: centsToPriceString(priceCents),
      priceCents,
      previewUrl: publicMediaUrl(row.preview_key),
      creatorFirstName: row.first_name,
      width: row.width,
      height: row.height,
    });
  }
  return { items, unavailable, totalCents: items.reduce((sum, item) => sum + item.priceCents, 0) };
}
