import { sql } from "kysely";
import type { Database } from "#db/schema";
import { getDb } from "~/infra/db.server";

type Value = string | number | null;

/**
 * The rows of `table` whose `column` equals `value` (every column), for
 * checking what a call left behind: `expect(await rowsWhere("bundles", "id",
 * bundle.id)).toEqual([])` says nothing of the bundle is left.
 */
export async function rowsWhere(
  table: keyof Database,
  column: string,
  value: Value,
): Promise<Record<string, unknown>[]> {
  return selectWhere(table, "*", column, value);
}

/** The `columns` (one name, a list, or "*") of the rows of `table` whose `column` equals `value`. */
export async function selectWhere<Row extends object = Record<string, unknown>>(
  table: keyof Database,
  columns: string | string[],
  column: string,
  value: Value,
): Promise<Row[]> {
  const chosen = columns === "*" ? sql`*` : sql.join([columns].flat().map((name) => sql.ref(name)));
  const { rows } = await sql<Row>`select ${chosen} from ${sql.table(
    table,
  )} where ${sql.ref(column)} = ${value}`.execute(getDb());
  return rows;
}

/** The first row `selectWhere` finds, or undefined. */
export async function firstRowWhere<Row extends object = Record<string, unknown>>(
  table: keyof Database,
  columns: string | string[],
  column: string,
  value: Value,
): Promise<Row | undefined> {
  return (await selectWhere<Row>(table, columns, column, value))[0];
}

/** The first row `selectWhere` finds; throws when there is none. */
export async function rowWhere<Row extends object = Record<string, unknown>>(
  table: keyof Database,
  columns: string | string[],
  column: string,
  value: Value,
): Promise<Row> {
  const row = await firstRowWhere<Row>(table, columns, column, value);
  if (!row) throw new Error(`No row of ${table} where ${column} = ${String(value)}`);
  return row;
}
