import { type AnyDb, byteText, index, notNull } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Registration links waiting to be used: the registration itself stays sealed
// in the mailed link; a row holds only the sha256 of the link's random nonce
// (so a link works once: using it deletes the row), a keyed hash of the
// address (so erasing an account, or creating it, deletes every link still
// waiting for that address) and when it expires.

export async function up(db: AnyDb): Promise<void> {
  // On PostgreSQL, text compares byte by byte ("C"), as on SQLite.
  const text = byteText(db);
  await db.schema
    .createTable("registration_links")
    .addColumn("nonce_hash", text, (col) => col.primaryKey())
    .$call(notNull(text, "email_hash", "created_at", "expires_at"))
    .execute();
  await index(db, "registration_links_by_email", "registration_links", ["email_hash"]).execute();
  await index(db, "registration_links_by_expiry", "registration_links", ["expires_at"]).execute();
}
