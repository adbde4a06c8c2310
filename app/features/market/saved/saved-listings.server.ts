import type { DB } from "~/infra/db.server";
import { listedRowsById } from "~/features/market/catalog/listed-rows.server";
import { publicMediaUrl } from "~/infra/signed-urls.server";
import type { SavedListing } from "~/features/market/saved/types";

/** The saved listings, in the order given (newest saved first). */
export async function savedListings(
  db: DB,
  listingIds: readonly string[],
): Promise<SavedListing[]> {
  if (listingIds.length === 0) return [];
  const byId = await listedRowsById(db, listingIds);
  return listingIds.map((id): SavedListing => {
    const row = byId.get(id);
    if (!row) return { id, available: false };
    return {
      id: row.id,
      available: true,
      title: row.title,
      style: row.style,
      priceCents: row.price_cents,
      previewUrl: publicMediaUrl(row.preview_key),
      creatorFirstName: row.first_name,
      width: row.width,
      height: row.height,
    };
  });
}
