import type { DB } from "~/infra/db.server";

/**
 * A bundle is sold only whole: withdrawing any of its listings withdraws it
 * (the listings' own withdrawals call this in the same transaction or right
 * after; docs/decisions/098). Answers how many bundles were withdrawn.
 */
export async function withdrawBundlesOfListings(
  db: DB,
  listingIds: readonly string[],
  now: Date,
): Promise<number> {
  if (listingIds.length === 0) return 0;
  const result = await db
    .updateTable("bundles")
    .set({ status: "withdrawn", updated_at: now.toISOString() })
    .where("status", "=", "active")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("bundle_items")
        .select("bundle_id")
        .where("listing_id", "in", [...listingIds]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
