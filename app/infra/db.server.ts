import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { Database } from "#db/schema";
import { migrationsFor } from "#db/migrations/index";
import { getConfig } from "~/infra/config.server";
import { ensureOwnerOnlyFile, restrictExistingFile } from "~/infra/owner-only-files.server";
import { engineOf } from "~/infra/sql-dialect.server";

export type DB = Kysely<Database>;

/** Where the database lives: an SQLite file (or ":memory:") or a PostgreSQL URL. */
export type DatabaseTarget = { file: string } | { url: string; poolSize?: number };

/** Whether `text` is a PostgreSQL connection URL rather than an SQLite file name. */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text);
}

/**
 * Opens the database. An SQLite file gets the settings the product relies on
 * (see openSqlite); a PostgreSQL URL gets a pool whose whole numbers come back
 * as numbers, as they do from SQLite.
 */
export function openDatabase(target: string | DatabaseTarget): DB {
  const resolved: DatabaseTarget =
    typeof target === "string"
      ? isPostgresUrl(target)
        ? { url: target }
        : { file: target }
      : target;
  return "url" in resolved
    ? openPostgres(resolved.url, resolved.poolSize)
    : openSqlite(resolved.file);
}

/**
 * The file is made owner-only (0600) before SQLite opens it, and SQLite gives
 * the WAL and shared-memory files it creates the database file's permissions;
 * side files left by an older version are closed to others here too.
 */
function openSqlite(file: string): DB {
  if (file !== ":memory:") {
    ensureOwnerOnlyFile(file);
    for (const suffix of ["-wal", "-shm", "-journal"]) restrictExistingFile(file + suffix);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * Whole numbers are bigint columns on PostgreSQL, and count() and sum() answer
 * bigint or numeric, which pg hands over as strings. Every such value in this
 * product (cents, bytes, counts) is far below 2^53, so they are read as numbers.
 */
const numberTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

function openPostgres(url: string, poolSize = 10): DB {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: numberTypes,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // A connection that breaks while idle (the server restarted) is dropped from
  // the pool and replaced on next use; without a listener it would end the process.
  pool.on("error", () => undefined);
  // So must one that breaks while checked out (pg emits 'error' on the client
  // as well as failing its query): the query's failure reaches the caller, the
  // broken client is not queryable and the pool drops it on release.
  pool.on("connect", (client) => client.on("error", () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

const pools = new WeakMap<DB, pg.Pool>();

/** The connection pool under a PostgreSQL database opened here (the metrics read its counts); undefined for SQLite. */
export function postgresPoolOf(db: DB): pg.Pool | undefined {
  return pools.get(db);
}

/**
 * Brings the schema up to date, under Kysely's migration lock (an advisory
 * lock on PostgreSQL), so servers starting together migrate once. On
 * PostgreSQL with DATABASE_DIRECT_URL set, the migration runs over that direct
 * connection (a pooler in transaction mode cannot hold the lock).
 */
export async function migrateToLatest(db: DB): Promise<string[]> {
  const config = getConfig();
  const direct =
    engineOf(db) === "postgres" && config.DATABASE_DIRECT_URL && db === processDb()
      ? openPostgres(config.DATABASE_DIRECT_URL, 1)
      : undefined;
  try {
    const target = direct ?? db;
    const migrator = new Migrator({
      db: target,
      provider: { getMigrations: async () => migrationsFor(engineOf(target)) },
    });
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error;
    return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
  } finally {
    await direct?.destroy();
  }
}

const globalForDb = globalThis as unknown as { __selfieStudioDb?: { target: string; db: DB } };

function processDb(): DB | undefined {
  return globalForDb.__selfieStudioDb?.db;
}

/** The process's database: PostgreSQL when DATABASE_URL is set, else the SQLite file under DATA_DIR (opened on first use). */
export function getDb(): DB {
  const config = getConfig();
  const target = config.DATABASE_URL ?? config.databaseFile;
  const existing = globalForDb.__selfieStudioDb;
  if (existing && existing.target === target) return existing.db;
  const db = config.DATABASE_URL
    ? openDatabase({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE })
    : openDatabase({ file: config.databaseFile });
  globalForDb.__selfieStudioDb = { target, db };
  return db;
}
