import type { DB } from "~/infra/db.server";
import { publiclyListed } from "~/features/market/catalog/listing-visibility.server";
import { publicMediaUrl } from "~/infra/signed-urls.server";
import { centsToPriceString } from "~/lib/money";

/** What a cart holds right now, priced from the database; ids no longer for sale are reported apart. */
export interface CartLine {
  id: string;
  title: string;
  style: string;
  price: string;
  priceCents: number;
  previewUrl: string;
  creatorFirstName: string;
  /** The pixel size of the file a buyer gets. */
  width: number;
  height: number;
}

export interface CartContents {
  items: CartLine[];
  unavailable: string[];
  totalCents: number;
}

export async function cartContents(db: DB, listingIds: string[]): Promise<CartContents> {
  if (listingIds.length === 0) return { items: [], unavailable: [], totalCents: 0 };
  const rows = await db
    .selectFrom("listings as l")
    .innerJoin("users as u", "u.id", "l.user_id")
    .select([
      "l.id",
      "l.title",
      "l.style",
      "l.price_cents",
      "l.preview_key",
      "l.width",
      "l.height",
      "u.first_name",
    ])
    .where("l.id", "in", listingIds)
    .where(publiclyListed)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const items: CartLine[] = [];
  const unavailable: string[] = [];
  for (const id of listingIds) {
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
