import { type AnyDb, byteText } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// A used email change remembers the address it replaced (`previous_email`),
// so an account's erasure can forget the mail to every address the account
// had, its first one included. Null while the change waits for its link, and
// for changes used before this migration. The rows go with the erasure.
// On PostgreSQL the column compares byte by byte ("C"), as SQLite's text does.

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("email_changes").addColumn("previous_email", byteText(db)).execute();
}
