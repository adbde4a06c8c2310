import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { allMigrations as migrations } from "./migrations/index";
import { getDb } from "~/infra/db.server";

const folder = path.join(__dirname, "migrations");

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
    // Ordinary and virtual tables (the search index); not the virtual tables' own shadow tables.
    const real = await sql<{
      name: string;
    }>`select name from pragma_table_list where schema = 'main' and type in ('table', 'virtual') and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(
      getDb(),
    );
    expect(tables.map((t) => t.table).sort()).toEqual(real.rows.map((r) => r.name).sort());
    for (const { table, iface } of tables) {
      const body = new RegExp(`export interface ${iface} \\{([\\s\\S]*?)\\n\\}`).exec(
        schemaText,
      )![1];
      const declared = [...body.matchAll(/^\s*(\w+)\??:/gm)].map((m) => m[1]).sort();
      const columns = await sql<{
        name: string;
      }>`select name from pragma_table_info(${table})`.execute(getDb());
      expect(declared, table).toEqual(columns.rows.map((c) => c.name).sort());
    }
  });

  it("the database runs with WAL, foreign keys and a busy timeout", async () => {
    const db = getDb();
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
    const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
    const busy = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
    expect(mode.rows[0].journal_mode).toBe("wal");
    expect(fk.rows[0].foreign_keys).toBe(1);
    expect(busy.rows[0].timeout).toBeGreaterThanOrEqual(5000);
  });
});
