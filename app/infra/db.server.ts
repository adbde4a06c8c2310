import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import type { Database } from "#db/schema";
import { migrationsFor } from "#db/migrations/index";
import {
  ConfigError,
  DEFAULT_DATABASE_MAX_LIFETIME_SECONDS,
  getConfig,
  type Config,
} from "~/infra/config.server";
import { ensureOwnerOnlyFile, restrictExistingFile } from "~/infra/owner-only-files.server";
import { engineOf } from "~/infra/sql-dialect.server";
import { pooledMigrationProblem, poolerSignOf } from "~/infra/postgres-pooler.server";

export type DB = Kysely<Database>;

/**
 * Where the database lives: an SQLite file (or ":memory:") or a PostgreSQL URL,
 * with the pool's size and the longest a connection is kept (seconds).
 */
export type DatabaseTarget =
  { file: string } | { url: string; poolSize?: number; maxLifetimeSeconds?: number };

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
    ? openPostgres(resolved.url, resolved.poolSize, resolved.maxLifetimeSeconds)
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
  // A deleted row's bytes are overwritten with zeros, not left on a free page: an erased
  // person's values cannot be read back from the file (docs/decisions/086-erasure-leaves-nothing-behind.md).
  sqlite.pragma("secure_delete = ON");
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

function openPostgres(
  url: string,
  poolSize = 10,
  maxLifetimeSeconds = DEFAULT_DATABASE_MAX_LIFETIME_SECONDS,
): DB {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: numberTypes,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // A connection older than this is closed when idle (or when released) and replaced on next use.
    maxLifetimeSeconds,
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
  urls.set(db, url);
  return db;
}

const pools = new WeakMap<DB, pg.Pool>();
/** The URL each PostgreSQL database was opened with (migrateToLatest compares it with DATABASE_URL). */
const urls = new WeakMap<DB, string>();

/** The connection pool under a PostgreSQL database opened here (the metrics read its counts); undefined for SQLite. */
export function postgresPoolOf(db: DB): pg.Pool | undefined {
  return pools.get(db);
}

/**
 * On SQLite, after an erasure: rewrites the database file (VACUUM) and then
 * empties its write-ahead log (`wal_checkpoint(TRUNCATE)`), so no copy of an
 * erased row is left anywhere in the file. `secure_delete` zeroes what a
 * delete frees, but a row's earlier versions can survive in a live page's
 * unused space or on a free page, and the -wal file keeps pages written
 * before (docs/decisions/097). The rewrite takes the write lock for as long
 * as copying the database takes. A reader holding an older snapshot may keep
 * part of the log until the next checkpoint. On PostgreSQL nothing: its log
 * and vacuum belong to the database server.
 */
export async function compactAfterErasure(db: DB): Promise<void> {
  if (engineOf(db) === "postgres") return;
  await sql`vacuum`.execute(db);
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
}

/**
 * Brings the schema up to date, under Kysely's migration lock (a session-level
 * advisory lock on PostgreSQL), so servers starting together migrate once. The
 * database opened from DATABASE_URL migrates over DATABASE_DIRECT_URL when it
 * is set; without it, a DATABASE_URL that looks pooled is refused (a
 * ConfigError naming DATABASE_DIRECT_URL) before anything runs, since a pooler
 * in transaction mode can leave the lock held (postgres-pooler.server.ts).
 */
export async function migrateToLatest(
  db: DB,
  config: Pick<
    Config,
    "DATABASE_URL" | "DATABASE_DIRECT_URL" | "DATABASE_MAX_LIFETIME_SECONDS"
  > = getConfig(),
): Promise<string[]> {
  const opened = urls.get(db);
  const configured = opened !== undefined && opened === config.DATABASE_URL;
  if (configured && !config.DATABASE_DIRECT_URL) {
    const sign = poolerSignOf(opened);
    if (sign) throw new ConfigError([pooledMigrationProblem(sign)]);
  }
  const direct =
    configured && config.DATABASE_DIRECT_URL
      ? openPostgres(config.DATABASE_DIRECT_URL, 1, config.DATABASE_MAX_LIFETIME_SECONDS)
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

/** The process's database: PostgreSQL when DATABASE_URL is set, else the SQLite file under DATA_DIR (opened on first use). */
export function getDb(): DB {
  const config = getConfig();
  const target = config.DATABASE_URL ?? config.databaseFile;
  const existing = globalForDb.__selfieStudioDb;
  if (existing && existing.target === target) return existing.db;
  const db = config.DATABASE_URL
    ? openDatabase({
        url: config.DATABASE_URL,
        poolSize: config.DATABASE_POOL_SIZE,
        maxLifetimeSeconds: config.DATABASE_MAX_LIFETIME_SECONDS,
      })
    : openDatabase({ file: config.databaseFile });
  globalForDb.__selfieStudioDb = { target, db };
  return db;
}
