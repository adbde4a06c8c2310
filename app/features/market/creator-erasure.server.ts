import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { deleteBundlesOfCreator } from "~/features/market/bundles/bundles.server";

/**
 * The marketplace's part of an account erasure.
 *
 * At once (in the erasure's transaction): the creator's listings are
 * withdrawn (and their bundles), so the marketplace, its search index (the listings' triggers)
 * and new checkouts drop them; purchases the person made as a buyer lose the
 * name, email and company typed at checkout (their download links keep
 * working: they are keyed by their own tokens), and their refund requests
 * lose the buyer's reason and the admin's reply to it (the state stays).
 *
 * Then (the erasure job): every listing's public preview goes; its clean file
 * goes unless a buyer paid for it (an order item of a paid or disputed order
 * names it: the buyer's download reads `order_items.file_key`, the very
 * file). Listings no order refers to are deleted; the others stay, withdrawn,
 * with their title (the buyers' license pages and the creator's sales name
 * it) but without description or tags. The creator's bundles are deleted
 * (an order item bought in one keeps only the bundle's id).
 */

/** What a purchase the erased person made as a buyer shows for the buyer's name and address. */
export const ERASED_BUYER_NAME = "Deleted buyer";
export const erasedBuyerEmail = (userId: string) => `erased-${userId}@invalid`;

/** Order states whose buyer holds what they paid for: their downloads and license stand (a dispute may yet be won). */
const BOUGHT_STATUSES = ["paid", "disputed"] as const;

/** Withdraws every active listing of the creator; answers how many. */
export async function withdrawListingsOfErasedCreator(
  trx: DB,
  userId: string,
  now: Date,
): Promise<number> {
  const result = await trx
    .updateTable("listings")
    .set({ status: "withdrawn", updated_at: now.toISOString() })
    .where("user_id", "=", userId)
    .where("status", "=", "active")
    .executeTakeFirst();
  await trx
    .updateTable("bundles")
    .set({ status: "withdrawn", updated_at: now.toISOString() })
    .where("user_id", "=", userId)
    .where("status", "=", "active")
    .execute();
  return Number(result.numUpdatedRows);
}

/** Purchases made with the erased person's address keep their amounts and files, not the buyer's name, address, company or words. */
export async function forgetBuyerDetails(
  trx: DB,
  { userId, email, now }: { userId: string; email: string; now: Date },
): Promise<void> {
  await trx
    .updateTable("refund_requests")
    .set({ reason: "", decline_reason: null })
    .where("order_id", "in", (eb) =>
      eb.selectFrom("orders").select("id").where("customer_email", "=", email.trim().toLowerCase()),
    )
    .execute();
  await trx
    .updateTable("orders")
    .set({
      customer_name: ERASED_BUYER_NAME,
      customer_email: erasedBuyerEmail(userId),
      customer_company: null,
      updated_at: now.toISOString(),
    })
    .where("customer_email", "=", email.trim().toLowerCase())
    .execute();
}

/** The clean files of the creator that buyers paid for: these stay on disk after the erasure. */
export async function boughtFileKeysOfCreator(db: DB, creatorId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom("order_items as i")
    .innerJoin("orders as o", "o.id", "i.order_id")
    .select("i.file_key")
    .distinct()
    .where("i.creator_id", "=", creatorId)
    .where("o.status", "in", BOUGHT_STATUSES)
    .execute();
  return new Set(rows.map((row) => row.file_key));
}

/** The erasure job's marketplace step (see above). Safe to run again: it works on what is left. */
export async function eraseListingsOfCreator(
  db: DB,
  store: FileStore,
  { userId, keep }: { userId: string; keep: ReadonlySet<string> },
): Promise<void> {
  await deleteBundlesOfCreator(db, userId);
  const listings = await db
    .selectFrom("listings")
    .select(["id", "file_key", "preview_key"])
    .where("user_id", "=", userId)
    .execute();
  for (const listing of listings) {
    const ordered = await db
      .selectFrom("order_items")
      .select("id")
      .where("listing_id", "=", listing.id)
      .executeTakeFirst();
    if (ordered) {
      await db
        .updateTable("listings")
        .set({ status: "withdrawn", description: "", tags: "[]", stylized_image_id: null })
        .where("id", "=", listing.id)
        .execute();
    } else {
      await db.deleteFrom("listings").where("id", "=", listing.id).execute();
    }
    await store.remove(listing.preview_key);
    if (!keep.has(listing.file_key)) await store.remove(listing.file_key);
  }
  // Earlier snapshots of re-listed images that only unpaid, refunded or failed orders still name.
  const ordered = await db
    .selectFrom("order_items")
    .select("file_key")
    .distinct()
    .where("creator_id", "=", userId)
    .execute();
  for (const { file_key: key } of ordered) if (!keep.has(key)) await store.remove(key);
}
