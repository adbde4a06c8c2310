import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { canonicalRow, copySqliteToPostgres, CopyRefused } from "~/infra/database-copy.server";
import { getDb, migrateToLatest, openDatabase } from "~/infra/db.server";

/**
 * `npm run db:copy` moves an installation from SQLite to PostgreSQL: an
 * SQLite database with rows in every table (NULLs, large whole numbers,
 * non-ASCII and case-mixed text that sorts differently outside byte order)
 * is copied into this file's empty PostgreSQL database; every row arrives
 * unchanged, the identity sequences continue after the copied ids, and a
 * second copy into the now non-empty database is refused with one line.
 * Runs only with TEST_DATABASE_URL (a PostgreSQL server).
 */
const run = promisify(execFile);
const tsx = path.resolve("node_modules/.bin/tsx");
const ROWS_PER_TABLE = 3;

interface Column {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}
interface ForeignKey {
  table: string;
  from: string;
  to: string;
}

/** The product's tables on SQLite (not the migrator's, not the search index's virtual table and its shadow tables). */
function productTables(db: SQLite.Database): string[] {
  const all = (
    db.prepare("select name, sql from sqlite_master where type = 'table' order by name").all() as {
      name: string;
      sql: string;
    }[]
  ).filter((t) => !t.name.startsWith("kysely_") && !t.name.startsWith("sqlite_"));
  const virtual = all.filter((t) => /create virtual table/i.test(t.sql)).map((t) => t.name);
  return all
    .map((t) => t.name)
    .filter((name) => !virtual.some((v) => name === v || name.startsWith(`${v}_`)));
}

/** Rows in every table, parents first; row i of a child refers to row i of its parent (row 0 leaves nullable columns null). */
function fillEveryTable(file: string, smallIntegers: Set<string>): string[] {
  const db = new SQLite(file);
  try {
    const tables = productTables(db);
    const parentsOf = (table: string) =>
      (db.prepare("select * from pragma_foreign_key_list(?)").all(table) as ForeignKey[]).filter(
        (fk) => fk.table !== table,
      );
    const filled = new Set<string>();
    const keysOf = new Map<string, Record<string, unknown>[]>();
    while (filled.size < tables.length) {
      const before = filled.size;
      for (const table of tables) {
        if (filled.has(table) || !parentsOf(table).every((fk) => filled.has(fk.table))) continue;
        const columns = db.prepare("select * from pragma_table_info(?)").all(table) as Column[];
        const fks = parentsOf(table);
        const rows: Record<string, unknown>[] = [];
        for (let i = 0; i < ROWS_PER_TABLE; i++) {
          const row: Record<string, unknown> = {};
          for (const column of columns) {
            const fk = fks.find((f) => f.from === column.name);
            const nullable = column.notnull === 0 && column.pk === 0;
            if (fk) row[column.name] = nullable && i === 0 ? null : keysOf.get(fk.table)![i][fk.to];
            else if (nullable && i === 0) row[column.name] = null;
            else if (column.name === "stars") row[column.name] = i + 3;
            else if (/int/i.test(column.type))
              row[column.name] = smallIntegers.has(`${table}.${column.name}`)
                ? 2 ** 31 - 1 - i
                : 2 ** 40 + i * 7 + column.pk;
            else if (/real|floa|doub/i.test(column.type)) row[column.name] = i + 0.25;
            else if (/blob/i.test(column.type)) row[column.name] = Buffer.from([0, i, 255]);
            else
              row[column.name] = [`Zoë ${table}.${column.name}`, `apple-${i}`, `Äpfel 🙂 ${i}`][i];
          }
          const names = Object.keys(row);
          db.prepare(
            `insert into "${table}" (${names.map((n) => `"${n}"`).join(", ")}) values (${names.map(() => "?").join(", ")})`,
          ).run(...names.map((n) => row[n]));
          rows.push(row);
        }
        keysOf.set(table, rows);
        filled.add(table);
      }
      if (filled.size === before) throw new Error("foreign keys form a cycle");
    }
    return tables;
  } finally {
    db.close();
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("npm run db:copy (SQLite to PostgreSQL)", () => {
  it("copies every table's rows unchanged into an empty database, then refuses a second copy", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-copy-"));
    const file = path.join(dir, "selfie-studio.sqlite");
    const sqliteDb = openDatabase(file);
    await migrateToLatest(sqliteDb);
    await sqliteDb.destroy();
    const target = getDb();
    // PostgreSQL's whole-number columns are bigint, but a later migration's `integer` is 4 bytes there.
    const { rows: int4 } = await sql<{ name: string }>`
      select table_name || '.' || column_name as name from information_schema.columns
      where table_schema = current_schema() and data_type = 'integer'`.execute(target);
    const tables = fillEveryTable(file, new Set(int4.map((c) => c.name)));
    expect(tables.length).toBeGreaterThan(25);

    const lines: string[] = [];
    const report = await copySqliteToPostgres({
      sqliteFile: file,
      target,
      batchSize: 2, // several batches per table
      log: (line) => lines.push(line),
    });
    expect(report.map((t) => t.table).sort()).toEqual([...tables].sort());
    for (const t of report) {
      expect(t.sourceRows, t.table).toBe(ROWS_PER_TABLE);
      expect(t.targetRows, t.table).toBe(ROWS_PER_TABLE);
      expect(t.targetChecksum, t.table).toBe(t.sourceChecksum);
    }

    // Checked again, independently of the copy's own checksums: each table's rows, column by column.
    const source = new SQLite(file, { readonly: true });
    try {
      for (const table of tables) {
        const expected = source
          .prepare(`select * from "${table}"`)
          .all()
          .map((row) => canonicalRow(Object.values(row as object)))
          .sort();
        const { rows } = await sql<
          Record<string, unknown>
        >`select * from ${sql.table(table)}`.execute(target);
        const columns = Object.keys(
          source.prepare(`select * from "${table}" limit 1`).get() as object,
        );
        const actual = rows.map((row) => canonicalRow(columns.map((c) => row[c]))).sort();
        expect(actual, table).toEqual(expected);
      }
    } finally {
      source.close();
    }

    // The identity columns' sequences continue after the copied ids.
    const { id } = await target
      .insertInto("audit_log")
      .values({ actor_id: "x", action: "after-copy", created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(id).toBeGreaterThan(2 ** 40 + (ROWS_PER_TABLE - 1) * 7);

    // A second copy finds rows and refuses, before writing anything, in one line.
    await expect(copySqliteToPostgres({ sqliteFile: file, target })).rejects.toThrow(CopyRefused);
    const url = process.env.DATABASE_URL!;
    const again = await run(tsx, ["scripts/db-copy.ts", "--from", `sqlite:${file}`, "--to", url], {
      env: { ...process.env },
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect("code" in again ? again.code : 0).toBe(1);
    expect(again.stderr.trim()).toBe(
      "The target database is not empty (table audit_log has rows): db:copy only fills an empty database.",
    );
    const { count } = await target
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    expect(count).toBe(ROWS_PER_TABLE);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a source that lacks this version's migrations", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-copy-"));
    const file = path.join(dir, "old.sqlite");
    const old = openDatabase(file);
    await migrateToLatest(old);
    await sql`delete from kysely_migration where name = '2026-11-26-0032-order-item-positions'`.execute(
      old,
    );
    await old.destroy();
    await expect(copySqliteToPostgres({ sqliteFile: file, target: getDb() })).rejects.toThrow(
      /not up to date \(missing 2026-11-26-0032-order-item-positions\)/,
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("canonicalRow", () => {
  it("serializes a row the same whichever engine read it", () => {
    expect(canonicalRow([1, "a", null, Buffer.from("hi"), true, 2.5])).toBe(
      canonicalRow([1, "a", undefined, new Uint8Array([104, 105]), 1, 2.5]),
    );
    expect(canonicalRow([1])).not.toBe(canonicalRow(["1"]));
  });
});
