import { sql, type Selectable } from "kysely";
import type { Database } from "#db/schema";
import { getDb } from "~/infra/db.server";

type Value = string | number | null;
type Table = keyof Database;
/** A column of `T`'s, by name. */
type ColumnOf<T extends Table> = keyof Selectable<Database[T]> & string;
/** What a select of `C` from `T` reads back, typed as the schema says. */
type RowOf<T extends Table, C extends ColumnOf<T>> = Pick<Selectable<Database[T]>, C>;

/**
 * The rows of `table` whose `column` equals `value` (every column), for
 * checking what a call left behind: `expect(await rowsWhere("bundles", "id",
 * bundle.id)).toEqual([])` says nothing of the bundle is left.
 */
export async function rowsWhere<T extends Table>(
  table: T,
  column: ColumnOf<T>,
  value: Value,
): Promise<RowOf<T, ColumnOf<T>>[]> {
  return selectWhere(table, "*", column, value);
}

/**
 * The `columns` (one name, a list, or "*") of the rows of `table` whose
 * `column` equals `value`: in the order of the column `orderBy` (ascending),
 * or without it in the engine's order.
 */
export async function selectWhere<T extends Table, C extends ColumnOf<T> = ColumnOf<T>>(
  table: T,
  columns: C | readonly C[] | "*",
  column: ColumnOf<T>,
  value: Value,
  orderBy?: ColumnOf<T>,
): Promise<RowOf<T, C>[]> {
  const chosen = columns === "*" ? sql`*` : sql.join([columns].flat().map((name) => sql.ref(name)));
  const order = orderBy ? sql` order by ${sql.ref(orderBy)}` : sql``;
  const { rows } = await sql<RowOf<T, C>>`select ${chosen} from ${sql.table(
    table,
  )} where ${sql.ref(column)} = ${value}${order}`.execute(getDb());
  return rows;
}

/** How many rows `table` holds. */
export async function rowCount(table: Table): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(
    table,
  )}`.execute(getDb());
  return Number(rows[0].n);
}

/** The first row `selectWhere` finds, or undefined. */
export async function firstRowWhere<T extends Table, C extends ColumnOf<T> = ColumnOf<T>>(
  table: T,
  columns: C | readonly C[] | "*",
  column: ColumnOf<T>,
  value: Value,
): Promise<RowOf<T, C> | undefined> {
  return (await selectWhere(table, columns, column, value))[0];
}

/** The first row `selectWhere` finds; throws when there is none. */
export async function rowWhere<T extends Table, C extends ColumnOf<T> = ColumnOf<T>>(
  table: T,
  columns: C | readonly C[] | "*",
  column: ColumnOf<T>,
  value: Value,
): Promise<RowOf<T, C>> {
  const row = await firstRowWhere(table, columns, column, value);
  if (!row) throw new Error(`No row of ${table} where ${column} = ${String(value)}`);
  return row;
}
