import type { Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

// Frozen: a migration never imports app code and never changes once landed.
//
// The consent log: one row per consent given and per consent withdrawn, with
// its time, the purpose ("face-processing"), and the version of the text it
// was about; a grant keeps the very lines the person was shown (a JSON array),
// so a past consent can be shown after the text has changed. Rows are only
// ever inserted (a withdrawal is a row of its own); the account's erasure
// removes them.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // On PostgreSQL, text compares byte by byte ("C"), as on SQLite.
  const text = db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : "text";
  await db.schema
    .createTable("consent_log")
    .addColumn("id", text, (col) => col.primaryKey())
    .addColumn("user_id", text, (col) => col.notNull())
    .addColumn("purpose", text, (col) => col.notNull())
    .addColumn("action", text, (col) => col.notNull())
    .addColumn("text_version", text, (col) => col.notNull())
    .addColumn("text", text)
    .addColumn("at", text, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("consent_log_by_user")
    .on("consent_log")
    .columns(["user_id", "at"])
    .execute();
}
