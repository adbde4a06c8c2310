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

/**
 * Runs `work` with the rows `lock` selects held against other writers until
 * it ends: for work that reads rows, waits on another service (a token
 * refresh over HTTP) and stores what it answered. On PostgreSQL, `work` gets
 * a transaction that first locked the rows (FOR UPDATE): a caller in another
 * process waits at the lock, then reads what `work` stored. On SQLite, `work`
 * runs on `db` outside any transaction: a transaction would hold the one
 * connection every other query of the process goes through for the whole
 * call, and there the single writer leaves only the final write to guard (a
 * compare-and-swap UPDATE).
 */
export async function whileRowsLocked<D extends AnyDb, T>(
  db: D,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  lock: (trx: D) => SelectQueryBuilder<any, any, any>,
  work: (db: D) => Promise<T>,
): Promise<T> {
  if (engineOf(db) !== "postgres") return work(db);
  return db.transaction().execute(async (trx) => {
    const held = trx as unknown as D;
    await lockedRows(held, lock(held)).execute();
    return work(held);
  });
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
