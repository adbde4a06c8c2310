import { type AnyDb, index } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Two reading orders for the public listing pages:
// - a creator's live listings newest first (a storefront, "more from the
//   creator" on a listing's page): (user_id, status, created_at, id), so a
//   creator whose listings are all old is not found by walking every newer
//   listing of everybody;
// - live listings in id order (the sitemap's parts, keyset on id):
//   (status, id), so a part is a range of the index, not a sort of every
//   active listing.

export async function up(db: AnyDb): Promise<void> {
  await index(db, "listings_user_id_status_created_at_id", "listings", [
    "user_id",
    "status",
    "created_at",
    "id",
  ]).execute();
  await index(db, "listings_status_id", "listings", ["status", "id"]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("listings_status_id").execute();
  await db.schema.dropIndex("listings_user_id_status_created_at_id").execute();
}
