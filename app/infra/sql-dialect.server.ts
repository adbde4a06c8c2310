import { PostgresAdapter, sql } from "kysely";
import type { Expression, Kysely, RawBuilder, SelectQueryBuilder } from "kysely";

/**
 * Where SQLite and PostgreSQL truly differ, in one place. Services write one
 * query and call these for the few fragments that are spelled differently;
 * nothing else in the product asks which engine it runs on.
 */

export type Engine = "sqlite" | "postgres";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** The engine behind a Kysely instance (or transaction). */
export function engineOf(db: AnyDb): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

/** A text field of a JSON object kept in a text column: json_extract on SQLite, ->> on PostgreSQL. */
export function jsonTextField(
  db: AnyDb,
  column: Expression<unknown>,
  field: string,
): RawBuilder<string | null> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field))
    throw new Error(`not a plain JSON field name: ${field}`);
  return engineOf(db) === "postgres"
    ? sql<string | null>`(${column}::jsonb ->> ${sql.lit(field)})`
    : sql<string | null>`json_extract(${column}, ${sql.lit("$." + field)})`;
}

/** The larger of two numbers: max(a, b) on SQLite, greatest(a, b) on PostgreSQL. */
export function greaterOf(
  db: AnyDb,
  a: Expression<number>,
  b: Expression<number>,
): RawBuilder<number> {
  return engineOf(db) === "postgres"
    ? sql<number>`greatest(${a}, ${b})`
    : sql<number>`max(${a}, ${b})`;
}

/** Equality where null equals null: `is` on SQLite, `is not distinct from` on PostgreSQL. */
export function sameValue(
  db: AnyDb,
  a: Expression<unknown>,
  b: Expression<unknown>,
): RawBuilder<boolean> {
  return engineOf(db) === "postgres"
    ? sql<boolean>`(${a} is not distinct from ${b})`
    : sql<boolean>`(${a} is ${b})`;
}

/**
 * Serializes writers that share `key` (an owner's id and what they are capped
 * on) until the transaction ends. SQLite already runs one writing transaction
 * at a time, so there it does nothing; on PostgreSQL it takes a transaction
 * advisory lock, so a check-then-insert under it (a cap, a reservation) is
 * atomic across connections and processes.
 */
export async function lockForTransaction(trx: AnyDb, key: string): Promise<void> {
  if (engineOf(trx) !== "postgres") return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}

/**
 * Rows this transaction will update, locked against other writers; on
 * PostgreSQL with `skipLocked`, rows another transaction holds are passed over
 * (the job claim). SQLite's single writer needs neither.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lockedRows<QB extends SelectQueryBuilder<any, any, any>>(
  db: AnyDb,
  query: QB,
  options: { skipLocked?: boolean } = {},
): QB {
  if (engineOf(db) !== "postgres") return query;
  const locked = query.forUpdate();
  return (options.skipLocked ? locked.skipLocked() : locked) as QB;
}

/** Case-insensitive substring match (`like` is case-insensitive for ASCII on SQLite, `ilike` on PostgreSQL). */
export function containsText(
  db: AnyDb,
  column: Expression<unknown>,
  pattern: string,
): RawBuilder<boolean> {
  return engineOf(db) === "postgres"
    ? sql<boolean>`(${column} ilike ${pattern} escape '\\')`
    : sql<boolean>`(${column} like ${pattern} escape '\\')`;
}

/** Whether `haystack` contains `needle` as is (case-sensitive, no wildcards): instr on SQLite, strpos on PostgreSQL. */
export function containsSubstring(
  db: AnyDb,
  haystack: Expression<unknown>,
  needle: Expression<unknown> | string,
): RawBuilder<boolean> {
  const position = engineOf(db) === "postgres" ? sql.raw("strpos") : sql.raw("instr");
  return sql<boolean>`(${position}(${haystack}, ${needle}) > 0)`;
}
