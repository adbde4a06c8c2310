import type { Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

// Shared spellings of the migrations. A deployed database has already run what
// they produced, so none of these may ever change what it builds: a new
// spelling is a new helper. Like the migrations, this file imports no app code.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/** Whether the migration runs on PostgreSQL (else SQLite). */
export function onPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Text compared byte by byte: `text collate "C"` on PostgreSQL, as SQLite compares its `text`. */
export function byteText(db: Db) {
  return onPostgres(db) ? sql`text collate "C"` : "text";
}

/** `create index name on table (columns)`, to be executed (after `.unique()` or `.where(…)` where wanted). */
export function index(db: Db, name: string, table: string, columns: string[]) {
  return db.schema.createIndex(name).on(table).columns(columns);
}
