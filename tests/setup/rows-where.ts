import { sql } from "kysely";
import type { Database } from "#db/schema";
import { getDb } from "~/infra/db.server";

/**
 * The rows of `table` whose `column` equals `value` (every column), for
 * checking what a call left behind: `expect(await rowsWhere("bundles", "id",
 * bundle.id)).toEqual([])` says nothing of the bundle is left.
 */
export async function rowsWhere(
  table: keyof Database,
  column: string,
  value: string | number | null,
): Promise<Record<string, unknown>[]> {
  const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(
    table,
  )} where ${sql.ref(column)} = ${value}`.execute(getDb());
  return rows;
}
