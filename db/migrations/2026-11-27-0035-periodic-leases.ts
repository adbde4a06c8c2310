import { type AnyDb, byteText, notNull } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// One row per periodic task (the deleted-files purge, the originals
// retention...): the worker process that holds the row's lease runs the task,
// so with several workers each task runs once per period. `holder` names the
// process and run, `expires_at` (ISO text, as every time in this schema) is
// when another process may take the lease over. On PostgreSQL text columns
// compare byte by byte (collation "C"), as SQLite's do.

export async function up(db: AnyDb): Promise<void> {
  const text = byteText(db);
  await db.schema
    .createTable("periodic_leases")
    .addColumn("name", text, (col) => col.primaryKey())
    .$call(notNull(text, "holder", "expires_at", "updated_at"))
    .execute();
}
