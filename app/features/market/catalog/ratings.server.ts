import { sql } from "kysely";
import type { DB } from "~/infra/db.server";
import { badRequest } from "~/infra/errors.server";
import { newId } from "~/infra/ids.server";
import { normalizeEmail } from "~/features/market/library/library-token.server";

/**
 * Buyers' ratings. Only a buyer who paid may rate, from their library (whose
 * link proves the email): one rating per purchased item, 1 to 5 stars and up
 * to 500 characters; rating the item again replaces the earlier one (the
 * buyer may change their mind; there is still one per item). A refunded
 * order's items cannot be rated, and a rating given before the refund stops
 * counting. A listing's average and count are of the ratings of its paid
 * items; the marketplace card shows them in place of the illustrative stars.
 */

export const NOT_RATEABLE = "Only a paid purchase in your library can be rated.";

export interface ListingRating {
  /** The mean of the stars, one decimal. */
  average: number;
  count: number;
}

export interface ItemRating {
  stars: number;
  text: string;
  updatedAt: string;
}

/** Records (or replaces) the buyer's rating of one of their paid items; 400 for an item that is not theirs, not paid or refunded. */
export async function rateItem(
  db: DB,
  args: { email: string; orderItemId: string; stars: number; text: string; now: Date },
): Promise<ItemRating> {
  const item = await db
    .selectFrom("order_items as i")
    .innerJoin("orders as o", "o.id", "i.order_id")
    .select(["i.id", "i.order_id", "i.listing_id"])
    .where("i.id", "=", args.orderItemId)
    .where("o.customer_email", "=", normalizeEmail(args.email))
    .where("o.status", "=", "paid")
    .executeTakeFirst();
  if (!item) throw badRequest(NOT_RATEABLE, { orderItemId: [NOT_RATEABLE] });
  const stamp = args.now.toISOString();
  await db
    .insertInto("ratings")
    .values({
      id: newId(),
      order_item_id: item.id,
      order_id: item.order_id,
      listing_id: item.listing_id,
      stars: args.stars,
      text: args.text,
      created_at: stamp,
      updated_at: stamp,
    })
    .onConflict((oc) =>
      oc
        .column("order_item_id")
        .doUpdateSet({ stars: args.stars, text: args.text, updated_at: stamp }),
    )
    .execute();
  return { stars: args.stars, text: args.text, updatedAt: stamp };
}

/** The buyer's own ratings of the given items, by order item id. */
export async function ratingsOfItems(
  db: DB,
  orderItemIds: readonly string[],
): Promise<Record<string, ItemRating>> {
  if (orderItemIds.length === 0) return {};
  const rows = await db
    .selectFrom("ratings")
    .select(["order_item_id", "stars", "text", "updated_at"])
    .where("order_item_id", "in", [...orderItemIds])
    .execute();
  return Object.fromEntries(
    rows.map((row) => [
      row.order_item_id,
      { stars: row.stars, text: row.text, updatedAt: row.updated_at },
    ]),
  );
}

/** Each listing's average and count of ratings from paid orders; listings without any are left out. */
export async function ratingsOfListings(
  db: DB,
  listingIds: readonly string[],
): Promise<Record<string, ListingRating>> {
  if (listingIds.length === 0) return {};
  const rows = await db
    .selectFrom("ratings as r")
    .innerJoin("orders as o", "o.id", "r.order_id")
    .select([
      "r.listing_id",
      sql<number>`avg(r.stars)`.as("average"),
      sql<number>`count(*)`.as("count"),
    ])
    .where("r.listing_id", "in", [...listingIds])
    .where("o.status", "=", "paid")
    .groupBy("r.listing_id")
    .execute();
  return Object.fromEntries(
    rows.map((row) => [
      row.listing_id,
      { average: Math.round(Number(row.average) * 10) / 10, count: Number(row.count) },
    ]),
  );
}
