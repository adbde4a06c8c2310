import fs from "node:fs";
import { sql } from "kysely";
import type { Kysely } from "kysely";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { engineOf } from "~/infra/sql-dialect.server";

/**
 * The names of the database's tables, sorted: SQLite's from sqlite_master
 * (its own sqlite_* tables and a virtual table's shadow tables included),
 * PostgreSQL's base tables of the current schema from information_schema.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function tableNames(db: Kysely<any>): Promise<string[]> {
  const result =
    engineOf(db) === "postgres"
      ? await sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(
          db,
        )
      : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(
          db,
        );
  return result.rows.map(({ name }) => name).sort();
}

/**
 * What the database stores, to search for text that must not be kept in
 * clear. SQLite: the main file and its WAL (where recent writes still are), as
 * they lie on disk. PostgreSQL (whose files belong to its server): every cell
 * of every table, as text.
 */
export async function storedDatabaseBytes(): Promise<Buffer> {
  const db = getDb();
  if (engineOf(db) === "postgres") {
    const cells: string[] = [];
    for (const name of await tableNames(db)) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
      for (const row of rows.rows)
        for (const value of Object.values(row)) cells.push(String(value));
    }
    return Buffer.from(cells.join("\n"));
  }
  const file = getConfig().databaseFile;
  const parts = [fs.readFileSync(file)];
  if (fs.existsSync(`${file}-wal`)) parts.push(fs.readFileSync(`${file}-wal`));
  return Buffer.concat(parts);
}
