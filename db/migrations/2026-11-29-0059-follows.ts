import { type AnyDb, byteText, index, notNullDefault } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Follows of a creator (issue 47): anyone types an address on a storefront or
// a listing page, with no account. The follow waits `unconfirmed` until the
// mailed link is used (only the sha256 of the link's token is kept, in
// `token_hash`, null once confirmed), then is `confirmed` and gets a digest of
// the creator's new listings at most once a day: `digest_since` is where the
// next digest's listings start (the confirmation, then each digest's moment)
// and `last_digest_at` when the last one was queued. `email_key` is the
// address in lower case: one address follows one creator once. Ending a
// follow (its one-click unsubscribe, the admin dropping the address, the
// creator's erasure) deletes its row.

export async function up(db: AnyDb): Promise<void> {
  const text = byteText(db);
  await db.schema
    .createTable("follows")
    .addColumn("id", text, (c) => c.primaryKey())
    .addColumn("creator_id", text, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("email", text, (c) => c.notNull())
    .addColumn("email_key", text, (c) => c.notNull())
    .addColumn("status", text, notNullDefault("unconfirmed"))
    .addColumn("token_hash", text, (c) => c.unique())
    .addColumn("created_at", text, (c) => c.notNull())
    .addColumn("confirmed_at", text)
    .addColumn("digest_since", text)
    .addColumn("last_digest_at", text)
    .execute();
  await index(db, "follows_by_creator_email", "follows", ["creator_id", "email_key"])
    .unique()
    .execute();
  await index(db, "follows_by_email", "follows", ["email_key"]).execute();
  await index(db, "follows_by_status_digest", "follows", ["status", "last_digest_at"]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("follows").execute();
}
