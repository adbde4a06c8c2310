import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { allMigrations as migrations } from "./migrations/index";
import { getDb } from "~/infra/db.server";
import { engineOf } from "~/infra/sql-dialect.server";

const folder = path.join(__dirname, "migrations");
const postgres = engineOf(getDb()) === "postgres";

/** The tables the schema describes. SQLite: ordinary and virtual tables (the search index), not the virtual tables' own shadow tables. */
async function realTables(): Promise<string[]> {
  const rows = postgres
    ? await sql<{
        name: string;
      }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_name not like 'kysely_%'`.execute(
        getDb(),
      )
    : await sql<{
        name: string;
      }>`select name from pragma_table_list where schema = 'main' and type in ('table', 'virtual') and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(
        getDb(),
      );
  return rows.rows.map((r) => r.name);
}

async function realColumns(table: string): Promise<string[]> {
  const rows = postgres
    ? await sql<{
        name: string;
      }>`select column_name as name from information_schema.columns where table_schema = 'public' and table_name = ${table}`.execute(
        getDb(),
      )
    : await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(getDb());
  return rows.rows.map((r) => r.name);
}

describe("migrations", () => {
  it("lists every migration file, in date order", () => {
    const files = fs
      .readdirSync(folder)
      .filter((file) => /^\d{4}-\d{2}-\d{2}-\d{4}-.+\.ts$/.test(file))
      .map((file) => file.replace(/\.ts$/, ""))
      .sort();
    expect(Object.keys(migrations).sort()).toEqual(files);
  });

  it("never import app code (they are frozen)", () => {
    for (const file of fs.readdirSync(folder).filter((f) => f !== "index.ts")) {
      const text = fs.readFileSync(path.join(folder, file), "utf8");
      expect(text, file).not.toMatch(/from ["'](~|#db|\.\.)\//);
    }
  });

  it("keep db/schema.ts in step with the real tables", async () => {
    const schemaText = fs.readFileSync(path.join(__dirname, "schema.ts"), "utf8");
    const databaseBlock = /export interface Database \{([^}]*)\}/.exec(schemaText)![1];
    const tables = [...databaseBlock.matchAll(/(\w+):\s*(\w+);/g)].map(([, table, iface]) => ({
      table,
      iface,
    }));
    // The search index is each engine's own (db/schema-match.test.ts); schema.ts describes SQLite's.
    const searchIndex = (name: string) => postgres && name.startsWith("listing_search");
    const real = (await realTables()).filter((name) => !searchIndex(name));
    expect(
      tables
        .map((t) => t.table)
        .filter((name) => !searchIndex(name))
        .sort(),
    ).toEqual(real.sort());
    for (const { table, iface } of tables.filter((t) => !searchIndex(t.table))) {
      const body = new RegExp(`export interface ${iface} \\{([\\s\\S]*?)\\n\\}`).exec(
        schemaText,
      )![1];
      const declared = [...body.matchAll(/^\s*(\w+)\??:/gm)].map((m) => m[1]).sort();
      expect(declared, table).toEqual((await realColumns(table)).sort());
    }
  });

  it.skipIf(postgres)(
    "the SQLite database runs with WAL, foreign keys and a busy timeout",
    async () => {
      const db = getDb();
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
      const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
      const busy = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
      expect(mode.rows[0].journal_mode).toBe("wal");
      expect(fk.rows[0].foreign_keys).toBe(1);
      expect(busy.rows[0].timeout).toBeGreaterThanOrEqual(5000);
    },
  );
});
