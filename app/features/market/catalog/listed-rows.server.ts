import type { DB } from "~/infra/db.server";
import { publiclyListed } from "~/features/market/catalog/listing-visibility.server";

/**
 * The listings among `listingIds` that are for sale now (publicly listed),
 * with what a cart or a saved list shows of each, by id; the ones missing
 * from the map are no longer available.
 */
export async function listedRowsById(db: DB, listingIds: readonly string[]) {
  const rows = await db
    .selectFrom("listings as l")
    .innerJoin("users as u", "u.id", "l.user_id")
    .select([
      "l.id",
      "l.title",
      "l.style",
      "l.price_cents",
      "l.extended_price_cents",
      "l.exclusive_price_cents",
      "l.preview_key",
      "l.width",
      "l.height",
      "u.first_name",
    ])
    .where("l.id", "in", [...listingIds])
    .where(publiclyListed)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}
