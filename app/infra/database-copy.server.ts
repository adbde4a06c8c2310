import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import type { Kysely } from "kysely";
import { migrationsFor } from "#db/migrations/index";
import type { DB } from "~/infra/db.server";
import { migrateToLatest } from "~/infra/db.server";
import { engineOf } from "~/infra/sql-dialect.server";

/**
 * `npm run db:copy`: an installation's SQLite database copied into an empty
 * PostgreSQL database, the move from one engine to the other.
 *
 * - The source is read from a snapshot (SQLite's online backup API), so a
 *   server still running on it does not tear the copy; writes it makes after
 *   the snapshot are not copied (stop it, or keep it from writing, first).
 * - The target is migrated to the latest schema, then must be empty: a table
 *   with a row refuses the copy before anything is written.
 * - Tables are copied in foreign-key order, in batches, all in ONE
 *   transaction: the copy lands whole or not at all.
 * - Identity columns' sequences are moved past the largest copied id.
 * - Before the transaction commits, every table is compared: its row count and
 *   a SHA-256 over its rows in primary-key order, each row serialized the same
 *   way on both sides (`canonicalRow`). Any difference rolls the copy back.
 */

export interface TableCopy {
  table: string;
  sourceRows: number;
  targetRows: number;
  sourceChecksum: string;
  targetChecksum: string;
}

export interface CopyOptions {
  /** The SQLite database file to copy (`--from sqlite:<file>`). */
  sqliteFile: string;
  /** The PostgreSQL database to fill (`--to postgres://…`). */
  target: DB;
  /** Rows per INSERT (fewer when a table has many columns: PostgreSQL takes 65 535 parameters at most). */
  batchSize?: number;
  log?: (line: string) => void;
}

/** A copy refused before anything was written, with the one line that says why. */
export class CopyRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CopyRefused";
  }
}

/** The target's tables are named at run time (whatever the schema holds), not by the typed schema. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyTables = Kysely<any>;

/**
 * Tables not copied: the migrator's own (the target's migration made them),
 * and the marketplace's search index, which each engine keeps its own way;
 * PostgreSQL's triggers fill its index as the listings are copied in.
 */
const TABLES_NOT_COPIED = new Set([
  "kysely_migration",
  "kysely_migration_lock",
  "listing_search_entries",
]);
const MAX_PARAMETERS = 65_000;
const CHECKSUM_PAGE = 5_000;

interface TableShape {
  name: string;
  columns: string[];
  /** Columns that order rows the same way on both engines: the primary key, else every column. */
  order: string[];
  identity: string[];
  parents: string[];
}

export async function copySqliteToPostgres(options: CopyOptions): Promise<TableCopy[]> {
  const { target } = options;
  const log = options.log ?? (() => undefined);
  if (engineOf(target) !== "postgres")
    throw new CopyRefused("The target must be a PostgreSQL database (postgres://…).");
  if (!fs.existsSync(options.sqliteFile))
    throw new CopyRefused(`No SQLite database at ${options.sqliteFile}.`);

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-db-copy-"));
  fs.chmodSync(scratch, 0o700);
  try {
    const snapshotFile = path.join(scratch, "snapshot.sqlite");
    const live = new SQLite(options.sqliteFile, { readonly: true, fileMustExist: true });
    try {
      await live.backup(snapshotFile);
    } finally {
      live.close();
    }
    const source = new SQLite(snapshotFile, { readonly: true, fileMustExist: true });
    try {
      refuseOutdatedSource(source);
      const applied = await migrateToLatest(target);
      if (applied.length > 0) log(`Migrated the target: ${applied.join(", ")}`);
      const tables = orderByForeignKeys(await targetTables(target));
      await refuseNonEmptyTarget(target, tables);
      refuseDifferentColumns(source, tables);
      return await target.transaction().execute(async (trx) => {
        for (const table of tables) {
          const rows = await copyTable(source, trx, table, options.batchSize ?? 500);
          log(`Copied ${table.name}: ${rows} rows`);
        }
        for (const table of tables) await moveIdentityPast(trx, table);
        const report = [];
        for (const table of tables) report.push(await compareTable(source, trx, table));
        const different = report.filter(
          (t) => t.sourceRows !== t.targetRows || t.sourceChecksum !== t.targetChecksum,
        );
        if (different.length > 0) {
          throw new CopyMismatch(
            report,
            different.map((t) => t.table),
          );
        }
        return report;
      });
    } finally {
      source.close();
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The copy differed from its source somewhere; nothing was committed. */
export class CopyMismatch extends Error {
  constructor(
    public readonly report: TableCopy[],
    tables: string[],
  ) {
    super(`The copy differs from the source in ${tables.join(", ")}; nothing was committed.`);
    this.name = "CopyMismatch";
  }
}

function refuseOutdatedSource(source: SQLite.Database) {
  const expected = Object.keys(migrationsFor("sqlite"));
  let applied: string[] = [];
  try {
    applied = (source.prepare("select name from kysely_migration").all() as { name: string }[]).map(
      (row) => row.name,
    );
  } catch {
    throw new CopyRefused("The source holds no Selfie Studio database (no migration table).");
  }
  const missing = expected.filter((name) => !applied.includes(name));
  if (missing.length > 0)
    throw new CopyRefused(
      `The SQLite database is not up to date (missing ${missing.join(", ")}): run \`npm run migrate\` on it (or start the server on it) first.`,
    );
  const unknown = applied.filter((name) => !expected.includes(name));
  if (unknown.length > 0)
    throw new CopyRefused(
      `The SQLite database has migrations this version does not know (${unknown.join(", ")}): copy with the version that wrote it.`,
    );
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function targetTables(db: DB): Promise<TableShape[]> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
    order by table_name`.execute(db);
  const columns = await sql<{ table: string; column: string; identity: string }>`
    select table_name as "table", column_name as "column", is_identity as identity
    from information_schema.columns where table_schema = current_schema()
    order by table_name, ordinal_position`.execute(db);
  const keys = await sql<{ table: string; column: string }>`
    select c.relname as "table", a.attname as "column"
    from pg_index i
    join pg_class c on c.oid = i.indrelid
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
    cross join lateral unnest(i.indkey) with ordinality as k(attnum, position)
    join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
    where i.indisprimary
    order by c.relname, k.position`.execute(db);
  const references = await sql<{ child: string; parent: string }>`
    select distinct c.relname as child, p.relname as parent
    from pg_constraint f
    join pg_class c on c.oid = f.conrelid
    join pg_class p on p.oid = f.confrelid
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
    where f.contype = 'f'`.execute(db);
  return tables.rows
    .map(({ name }) => name)
    .filter((name) => !TABLES_NOT_COPIED.has(name))
    .map((name) => {
      const own = columns.rows.filter((c) => c.table === name);
      const key = keys.rows.filter((k) => k.table === name).map((k) => k.column);
      return {
        name,
        columns: own.map((c) => c.column),
        order: key.length > 0 ? key : own.map((c) => c.column),
        identity: own.filter((c) => c.identity === "YES").map((c) => c.column),
        parents: references.rows
          .filter((r) => r.child === name && r.parent !== name)
          .map((r) => r.parent),
      };
    });
}

/** Parents before children (a table referring to itself is filled in primary-key order, in one statement per batch). */
function orderByForeignKeys(tables: TableShape[]): TableShape[] {
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  let remaining = [...tables];
  while (remaining.length > 0) {
    const ready = remaining.filter((t) => t.parents.every((p) => placed.has(p)));
    if (ready.length === 0)
      throw new Error(
        `Foreign keys form a cycle among ${remaining.map((t) => t.name).join(", ")}.`,
      );
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
    remaining = remaining.filter((t) => !placed.has(t.name));
  }
  return ordered;
}

async function refuseNonEmptyTarget(db: DB, tables: TableShape[]) {
  for (const table of tables) {
    const { rows } = await sql<{ found: number }>`select 1 as found from ${sql.table(
      table.name,
    )} limit 1`.execute(db);
    if (rows.length > 0)
      throw new CopyRefused(
        `The target database is not empty (table ${table.name} has rows): db:copy only fills an empty database.`,
      );
  }
}

function refuseDifferentColumns(source: SQLite.Database, tables: TableShape[]) {
  for (const table of tables) {
    const columns = (
      source.prepare(`select name from pragma_table_info(?)`).all(table.name) as { name: string }[]
    ).map((c) => c.name);
    if (columns.length === 0)
      throw new CopyRefused(`The SQLite database has no table ${table.name}.`);
    const differ =
      columns.length !== table.columns.length || table.columns.some((c) => !columns.includes(c));
    if (differ)
      throw new CopyRefused(
        `Table ${table.name} has different columns on the two sides (SQLite: ${columns.join(", ")}; PostgreSQL: ${table.columns.join(", ")}).`,
      );
  }
}

function orderClause(table: TableShape): string {
  // Nulls first on both engines (SQLite's default, not PostgreSQL's), for a table without a primary key.
  return table.order.map((c) => `${quote(c)} asc nulls first`).join(", ");
}

function selectAll(table: TableShape): string {
  return `select ${table.columns.map(quote).join(", ")} from ${quote(table.name)} order by ${orderClause(table)}`;
}

async function copyTable(
  source: SQLite.Database,
  trx: DB,
  table: TableShape,
  batchSize: number,
): Promise<number> {
  const perBatch = Math.max(
    1,
    Math.min(batchSize, Math.floor(MAX_PARAMETERS / table.columns.length)),
  );
  const statement = source.prepare(selectAll(table));
  let batch: Record<string, unknown>[] = [];
  let copied = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await (trx as AnyTables).insertInto(table.name).values(batch).execute();
    copied += batch.length;
    batch = [];
  };
  for (const row of statement.iterate() as Iterable<Record<string, unknown>>) {
    batch.push(row);
    if (batch.length >= perBatch) await flush();
  }
  await flush();
  return copied;
}

/** The next generated id comes after the largest copied one (an identity column's sequence does not see explicit ids). */
async function moveIdentityPast(trx: DB, table: TableShape) {
  for (const column of table.identity) {
    await sql`select setval(
        pg_get_serial_sequence(${quote(table.name)}, ${column}),
        coalesce((select max(${sql.ref(column)}) from ${sql.table(table.name)}), 0) + 1,
        false)`.execute(trx);
  }
}

/**
 * One row as text, the same on both engines: a JSON array of the values in
 * column order; whole and real numbers as JSON numbers (PostgreSQL's bigint
 * is read back as a number), bytes as base64, a boolean as 1/0, a date as ISO.
 */
export function canonicalRow(values: unknown[]): string {
  return JSON.stringify(
    values.map((value) => {
      if (value === null || value === undefined) return null;
      if (Buffer.isBuffer(value) || value instanceof Uint8Array)
        return { bytes: Buffer.from(value).toString("base64") };
      if (typeof value === "boolean") return value ? 1 : 0;
      if (typeof value === "bigint") return Number(value);
      if (value instanceof Date) return value.toISOString();
      return value;
    }),
  );
}

async function compareTable(
  source: SQLite.Database,
  trx: DB,
  table: TableShape,
): Promise<TableCopy> {
  const sourceHash = crypto.createHash("sha256");
  let sourceRows = 0;
  const statement = source.prepare(selectAll(table)).raw(true);
  for (const values of statement.iterate() as Iterable<unknown[]>) {
    sourceHash.update(canonicalRow(values) + "\n");
    sourceRows += 1;
  }
  const targetHash = crypto.createHash("sha256");
  let targetRows = 0;
  for (let offset = 0; ; offset += CHECKSUM_PAGE) {
    const { rows } = await sql<
      Record<string, unknown>
    >`${sql.raw(selectAll(table))} limit ${CHECKSUM_PAGE} offset ${offset}`.execute(trx);
    for (const row of rows) {
      targetHash.update(canonicalRow(table.columns.map((c) => row[c])) + "\n");
      targetRows += 1;
    }
    if (rows.length < CHECKSUM_PAGE) break;
  }
  return {
    table: table.name,
    sourceRows,
    targetRows,
    sourceChecksum: sourceHash.digest("hex"),
    targetChecksum: targetHash.digest("hex"),
  };
}

/** The report as a table: each table's row counts and checksums (the first 16 hex digits) on both sides. */
export function formatCopyReport(report: TableCopy[]): string {
  const header = ["table", "sqlite rows", "postgres rows", "sqlite sha256", "postgres sha256", ""];
  const lines = report.map((t) => [
    t.table,
    String(t.sourceRows),
    String(t.targetRows),
    t.sourceChecksum.slice(0, 16),
    t.targetChecksum.slice(0, 16),
    t.sourceRows === t.targetRows && t.sourceChecksum === t.targetChecksum ? "same" : "DIFFERENT",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 1 || i === 2 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [format(header), format(widths.map((w) => "-".repeat(w))), ...lines.map(format)].join(
    "\n",
  );
}
