import { type AnyDb, byteText, index, notNull, nullable, tableWithId } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Installs started from a store's Shopify admin while nobody was signed in
// here: the sha256 of the OAuth state sent to Shopify (used once), the store,
// and once Shopify sent the merchant back, the access it granted (sealed)
// and the sha256 of the claim token the merchant's browser holds, until a
// signed-in creator claims it or it expires (an hour; ten minutes before the
// callback).

export async function up(db: AnyDb): Promise<void> {
  // On PostgreSQL, text compares byte by byte ("C"), as on SQLite.
  const text = byteText(db);
  await tableWithId(db, "shopify_installs", text)
    .addColumn("shop_domain", text, (col) => col.notNull())
    .addColumn("state_hash", text, (col) => col.notNull().unique())
    .$call(nullable(text, "state_used_at", "credentials"))
    .addColumn("claim_hash", text, (col) => col.unique())
    .$call(notNull(text, "created_at", "expires_at"))
    .execute();
  await index(db, "shopify_installs_by_expiry", "shopify_installs", ["expires_at"]).execute();
}
