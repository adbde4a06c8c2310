import { type AnyDb, byteText, index } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Object storage keeps no directory to sweep, so the database keeps the keys
// in flight: a row is written before an object is stored under its key
// (remove_after null), and a removal is a row with the time its object may go.

export async function up(db: AnyDb): Promise<void> {
  // On PostgreSQL, text compares byte by byte ("C"), as on SQLite.
  const text = byteText(db);
  await db.schema
    .createTable("file_intents")
    .addColumn("file_key", text, (col) => col.primaryKey())
    .addColumn("created_at", text, (col) => col.notNull())
    .addColumn("remove_after", text)
    .execute();
  await index(db, "file_intents_by_created_at", "file_intents", ["created_at"]).execute();
}
