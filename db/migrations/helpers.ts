import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

// Shared spellings of the migrations. A deployed database has already run what
// they produced, so none of these may ever change what it builds: a new
// spelling is a new helper. Like the migrations, this file imports no app code.

/** The database a migration gets (of no particular schema: each migration knows its own moment's). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Table = CreateTableBuilder<any, any>;

/** Whether the migration runs on PostgreSQL (else SQLite). */
export function onPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Text compared byte by byte: `text collate "C"` on PostgreSQL, as SQLite compares its `text`. */
export function byteText(db: AnyDb) {
  return onPostgres(db) ? sql`text collate "C"` : "text";
}

/** `create index name on table (columns)`, to be executed (after `.unique()` or `.where(…)` where wanted). */
export function index(db: AnyDb, name: string, table: string, columns: string[]) {
  return db.schema.createIndex(name).on(table).columns(columns);
}

type ColumnType = Parameters<Table["addColumn"]>[1];

/** `create table name` beginning with the primary key `id` (text unless said otherwise), to add the rest to. */
export function tableWithId(db: AnyDb, name: string, type: ColumnType = "text") {
  return db.schema.createTable(name).addColumn("id", type, (c) => c.primaryKey());
}

/** Columns of one type that may be null, in order. */
export function nullable(type: ColumnType, ...names: string[]) {
  return (table: Table) => names.reduce((t, name) => t.addColumn(name, type), table);
}

/** Columns of one type that may not be null, in order. */
export function notNull(type: ColumnType, ...names: string[]) {
  return (table: Table) =>
    names.reduce((t, name) => t.addColumn(name, type, (c) => c.notNull()), table);
}

/** A text column that must name a row of `target` ("table.column") and goes when that row goes. */
export function ownedBy(name: string, target: string) {
  return (table: Table) =>
    table.addColumn(name, "text", (c) => c.notNull().references(target).onDelete("cascade"));
}

/** A column that may not be null and starts at `value`. */
export function notNullDefault(value: string | number) {
  return (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(value);
}

/** Adds columns to an existing table, one statement each (SQLite adds one column at a time). */
export async function addColumns(
  db: AnyDb,
  table: string,
  type: ColumnType,
  names: string[],
  build?: Parameters<Table["addColumn"]>[2],
) {
  for (const name of names)
    await db.schema.alterTable(table).addColumn(name, type, build).execute();
}

/** A listing the marketplace shows, as the PostgreSQL search triggers test the row `new`. */
const shown = sql.raw(
  `new.status = 'active' and exists (select 1 from users where users.id = new.user_id and users.banned = 0)`,
);

/**
 * The start of the body of PostgreSQL's listing_search_on_listing() (the
 * baseline's and 2026-11-28-0042's): an edit keeps the listing's entry, a
 * listing that stops being shown loses it; then `if` the listing is shown,
 * whose `then` branch (and `end if`) the caller writes.
 */
export const listingSearchEntryKeptWhileShown = sql`begin
        if tg_op in ('UPDATE', 'DELETE') then
          delete from listing_search_entries
            where listing_id = old.id
              and not (tg_op = 'UPDATE' and old.id = new.id and ${shown});
        end if;
        if tg_op in ('INSERT', 'UPDATE') and ${shown} then`;
