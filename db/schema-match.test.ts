import { sql, type RawBuilder } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, migrateToLatest, type DB } from "~/infra/db.server";
import { testPostgresDatabase } from "#tests/setup/test-postgres";

/**
 * SQLite and PostgreSQL must hold the same schema after their migrations:
 * the same tables, columns (name, type by family, nullability, default),
 * primary keys, unique keys, indexes, foreign keys and checks. Only the
 * search index differs on purpose (each engine indexes text its own way).
 */

const ENGINE_SPECIFIC = {
  sqlite: ["listing_search", "listing_search_entries"],
  postgres: ["listing_search_entries"],
};

type Column = { type: string; notNull: boolean; hasDefault: boolean };
type Schema = {
  tables: Record<string, Record<string, Column>>;
  primaryKeys: Record<string, string>;
  uniques: string[];
  indexes: string[];
  foreignKeys: string[];
  checks: string[];
};

function emptySchema(): Schema {
  return { tables: {}, primaryKeys: {}, uniques: [], indexes: [], foreignKeys: [], checks: [] };
}

function family(type: string): string {
  const t = type.toLowerCase();
  if (/int/.test(t)) return "integer";
  if (/char|text|clob/.test(t)) return "text";
  if (/real|floa|doub|numeric|decimal/.test(t)) return "real";
  if (/bool/.test(t)) return "boolean";
  return t;
}

async function rowsOf<T>(db: DB, query: RawBuilder<unknown>): Promise<T[]> {
  return (await query.execute(db)).rows as T[];
}

/** The rows of one of SQLite's table-valued pragma functions, e.g. `pragma_table_info(table)`. */
function pragma<T>(db: DB, fn: string, argument: string): Promise<T[]> {
  return rowsOf<T>(db, sql`select * from ${sql.raw(fn)}(${argument})`);
}

async function sqliteSchema(db: DB): Promise<Schema> {
  const tables = (
    await rowsOf<{ name: string }>(
      db,
      sql`select name from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' and name not like 'listing_search%'`,
    )
  ).map((r) => r.name);
  const schema = emptySchema();
  for (const table of tables) {
    const columns = await pragma<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }>(db, "pragma_table_info", table);
    schema.tables[table] = Object.fromEntries(
      columns.map((c) => [
        c.name,
        {
          type: family(c.type),
          // A primary key column is not null on PostgreSQL whatever it says on SQLite.
          notNull: c.notnull === 1 || c.pk > 0,
          hasDefault: c.dflt_value !== null || /autoincrement/i.test(c.type) || false,
        },
      ]),
    );
    const pk = columns
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    schema.primaryKeys[table] = pk.join(",");
    type Index = { name: string; unique: number; origin: string; partial: number };
    const indexes = await pragma<Index>(db, "pragma_index_list", table);
    for (const index of indexes) {
      if (index.origin === "pk") continue;
      const cols = (
        await pragma<{ name: string; seqno: number }>(db, "pragma_index_info", index.name)
      )
        .sort((a, b) => a.seqno - b.seqno)
        .map((c) => c.name)
        .join(",");
      if (index.unique && index.origin === "u") schema.uniques.push(`${table}(${cols})`);
      else
        schema.indexes.push(
          `${index.name} on ${table}(${cols})${index.unique ? " unique" : ""}${index.partial ? " partial" : ""}`,
        );
    }
    type ForeignKey = { table: string; from: string; to: string; on_delete: string };
    const fks = await pragma<ForeignKey>(db, "pragma_foreign_key_list", table);
    for (const fk of fks) {
      schema.foreignKeys.push(
        `${table}.${fk.from} -> ${fk.table}.${fk.to} on delete ${fk.on_delete.toLowerCase()}`,
      );
    }
    const ddl = (
      await sql<{
        sql: string;
      }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db)
    ).rows[0].sql;
    for (const match of ddl.matchAll(/check \(([^)]*)\)/gi))
      schema.checks.push(`${table}: ${normalizeCheck(match[1])}`);
  }
  // Autoincrement ids have a default on PostgreSQL (identity); on SQLite the rowid stands in for it.
  return schema;
}

async function postgresSchema(db: DB): Promise<Schema & { collations: string[] }> {
  const columns = (
    await sql<
      Record<"table_name" | "column_name" | "data_type" | "is_nullable" | "is_identity", string> &
        Record<"column_default" | "collation_name", string | null>
    >`select table_name, column_name, data_type, is_nullable, column_default, is_identity, collation_name
       from information_schema.columns
       where table_schema = 'public' and table_name not like 'kysely_%'`.execute(db)
  ).rows.filter((c) => !ENGINE_SPECIFIC.postgres.includes(c.table_name));
  const schema = { ...emptySchema(), collations: [] as string[] };
  for (const c of columns) {
    schema.tables[c.table_name] ??= {};
    schema.tables[c.table_name][c.column_name] = {
      type: family(c.data_type),
      notNull: c.is_nullable === "NO",
      hasDefault: c.column_default !== null || c.is_identity === "YES",
    };
    if (family(c.data_type) === "text" && c.collation_name !== "C")
      schema.collations.push(`${c.table_name}.${c.column_name}: ${c.collation_name ?? "default"}`);
  }
  const indexes = (
    await sql<
      Record<"table" | "name" | "columns", string> &
        Record<"unique" | "primary" | "partial", boolean> & { constraint: string | null }
    >`select t.relname as table, i.relname as name, x.indisunique as unique, x.indisprimary as primary,
         x.indpred is not null as partial,
         array_to_string(array(select a.attname::text from unnest(x.indkey) with ordinality k(attnum, n)
               join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.n), ',') as columns,
         (select c.contype::text from pg_constraint c where c.conindid = x.indexrelid limit 1) as constraint
       from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
       join pg_namespace ns on ns.oid = t.relnamespace
       where ns.nspname = 'public' and t.relname not like 'kysely_%'`.execute(db)
  ).rows.filter((r) => !ENGINE_SPECIFIC.postgres.includes(r.table));
  for (const index of indexes) {
    const cols = index.columns;
    if (index.primary) schema.primaryKeys[index.table] = cols;
    else if (index.constraint === "u") schema.uniques.push(`${index.table}(${cols})`);
    else
      schema.indexes.push(
        `${index.name} on ${index.table}(${cols})${index.unique ? " unique" : ""}${index.partial ? " partial" : ""}`,
      );
  }
  for (const table of Object.keys(schema.tables)) schema.primaryKeys[table] ??= "";
  const fks = (
    await sql<
      Record<"table" | "column" | "ref_table" | "ref_column" | "on_delete", string>
    >`select tc.table_name as table, kcu.column_name as column, ccu.table_name as ref_table,
         ccu.column_name as ref_column, rc.delete_rule as on_delete
       from information_schema.table_constraints tc
       join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
       join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
       join information_schema.referential_constraints rc on rc.constraint_name = tc.constraint_name and rc.constraint_schema = tc.table_schema
       where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = 'public'`.execute(db)
  ).rows;
  for (const fk of fks) {
    schema.foreignKeys.push(
      `${fk.table}.${fk.column} -> ${fk.ref_table}.${fk.ref_column} on delete ${fk.on_delete.toLowerCase()}`,
    );
  }
  const checks = (
    await sql<{
      table: string;
      definition: string;
    }>`select t.relname as table, pg_get_constraintdef(c.oid) as definition
       from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace ns on ns.oid = t.relnamespace
       where c.contype = 'c' and ns.nspname = 'public'`.execute(db)
  ).rows;
  for (const check of checks) {
    schema.checks.push(
      `${check.table}: ${normalizeCheck(check.definition.replace(/^CHECK \((.*)\)$/i, "$1"))}`,
    );
  }
  return schema;
}

/** A check's text with engine spelling removed: `stars between 1 and 5` and `((stars >= 1) AND (stars <= 5))` agree. */
function normalizeCheck(text: string): string {
  const between = /(\w+) between (\S+) and (\S+)/i.exec(text);
  if (between) return `${between[1]} >= ${between[2]} and ${between[1]} <= ${between[3]}`;
  return text.replace(/[()]/g, "").replace(/\s+/g, " ").trim().toLowerCase();
}

function sorted(schema: Schema) {
  return {
    ...schema,
    uniques: [...schema.uniques].sort(),
    indexes: [...schema.indexes].sort(),
    foreignKeys: [...schema.foreignKeys].sort(),
    checks: [...schema.checks].sort(),
  };
}

const server = process.env.TEST_DATABASE_URL;
const postgres = testPostgresDatabase(server);
const opened: DB[] = [];
afterAll(async () => {
  for (const db of opened) await db.destroy();
  await postgres?.drop();
});

describe.skipIf(!postgres)(
  "the PostgreSQL schema matches SQLite's (needs TEST_DATABASE_URL)",
  () => {
    it("table by table and column by column, with the same keys, indexes and constraints", async () => {
      const lite = openDatabase(":memory:");
      opened.push(lite);
      await migrateToLatest(lite);
      await postgres!.create();
      const pg = openDatabase(postgres!.url);
      opened.push(pg);
      await migrateToLatest(pg);

      const a = sorted(await sqliteSchema(lite));
      const { collations, ...b } = await postgresSchema(pg);
      const bs = sorted(b);

      expect(Object.keys(bs.tables).sort()).toEqual(Object.keys(a.tables).sort());
      for (const table of Object.keys(a.tables)) {
        const liteColumns = Object.fromEntries(
          Object.entries(a.tables[table]).map(([name, column]) => [
            name,
            // An integer primary key has a default on both: SQLite's rowid, PostgreSQL's identity.
            {
              ...column,
              hasDefault:
                column.hasDefault || (a.primaryKeys[table] === name && column.type === "integer"),
            },
          ]),
        );
        expect(bs.tables[table], table).toEqual(liteColumns);
      }
      expect(bs.primaryKeys).toEqual(a.primaryKeys);
      expect(bs.uniques).toEqual(a.uniques);
      expect(bs.indexes).toEqual(a.indexes);
      expect(bs.foreignKeys).toEqual(a.foreignKeys);
      expect(bs.checks).toEqual(a.checks);
      // Text compares byte by byte on both engines (ordering and keyset pages agree).
      expect(collations).toEqual([]);
    });
  },
);
