import fs from "node:fs";
import { sql } from "kysely";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { engineOf } from "~/infra/sql-dialect.server";

/**
 * What the database holds, as bytes a test can search for a plaintext secret:
 * on SQLite the database file and its WAL (after a checkpoint), on PostgreSQL
 * the text of every row of every table of the test's database.
 */
export async function storedDatabaseBytes(): Promise<{ where: string; bytes: Buffer }[]> {
  const db = getDb();
  if (engineOf(db) === "postgres") {
    const tables = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'
      order by table_name`.execute(db);
    const stored: { where: string; bytes: Buffer }[] = [];
    for (const { name } of tables.rows) {
      const rows = await sql<{
        row: string;
      }>`select t::text as row from ${sql.table(name)} t`.execute(db);
      stored.push({
        where: `table ${name}`,
        bytes: Buffer.from(rows.rows.map((r) => r.row).join("\n"), "utf8"),
      });
    }
    return stored;
  }
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  const file = getConfig().databaseFile;
  return [file, `${file}-wal`]
    .filter((path) => fs.existsSync(path))
    .map((path) => ({ where: path, bytes: fs.readFileSync(path) }));
}
