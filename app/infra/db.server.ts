import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import type { Database } from "#db/schema";
import { migrations } from "#db/migrations/index";
import { getConfig } from "~/infra/config.server";
import { ensureOwnerOnlyFile, restrictExistingFile } from "~/infra/owner-only-files.server";

export type DB = Kysely<Database>;

/**
 * Opens a SQLite file with the settings the product relies on. The file is
 * made owner-only (0600) before SQLite opens it, and SQLite gives the WAL and
 * shared-memory files it creates the database file's permissions; side files
 * left by an older version are closed to others here too.
 */
export function openDatabase(file: string): DB {
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

export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

const globalForDb = globalThis as unknown as { __selfieStudioDb?: { file: string; db: DB } };

/** The process's database (one connection, opened on first use). */
export function getDb(): DB {
  const file = getConfig().databaseFile;
  const existing = globalForDb.__selfieStudioDb;
  if (existing && existing.file === file) return existing.db;
  const db = openDatabase(file);
  globalForDb.__selfieStudioDb = { file, db };
  return db;
}
