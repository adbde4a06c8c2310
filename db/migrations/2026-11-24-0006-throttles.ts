import { type AnyDb, index, notNull, tableWithId } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Sign-in attempts in progress: a row is written, in the same transaction that
// checks the limits, before a password is checked, so concurrent attempts count
// at once. A failed attempt moves to auth_failures; a successful one is deleted.
// Keys are SHA-256 hashes of the normalized email and of the client address.
// No AUTOINCREMENT: a reserved and released attempt leaves no trace.

export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, "login_attempts")
    .$call(notNull("text", "email_hash", "address_hash"))
    // 1 when the address had no failure for this email in the window when the attempt began.
    .addColumn("newcomer", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await index(db, "login_attempts_email_hash_created_at", "login_attempts", [
    "email_hash",
    "created_at",
  ]).execute();
  await index(db, "login_attempts_address_hash_created_at", "login_attempts", [
    "address_hash",
    "created_at",
  ]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("login_attempts").execute();
}
