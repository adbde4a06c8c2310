import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import SQLite from "better-sqlite3";
import { artifactKeys } from "~/infra/artifact-files.server";
import { FILE_KEY_COLUMNS } from "~/infra/file-references.server";
import { DELETED_DIR, isValidFileKey } from "~/infra/file-store.server";
import {
  ensureOwnerOnlyDir,
  ensureOwnerOnlyFile,
  OWNER_ONLY_FILE,
  restrictExistingFile,
} from "~/infra/owner-only-files.server";

/**
 * SQLite: a consistent copy of a data directory while the server runs: first the
 * database through SQLite's online backup API (a transactionally consistent
 * snapshot, WAL included), then the files and the secrets (SECRET_FILES). Files written
 * after the snapshot may be copied too (harmless extras, which the restored
 * server's orphan sweep removes); a file the snapshot names that was removed
 * meanwhile is taken from .deleted/. `tmp/` is skipped. The backup folder is
 * owner-only (0700) and its database and app secret 0600, like the originals.
 */
export const DATABASE_FILE = "selfie-studio.sqlite";

/**
 * The data directory's secrets, copied owner-only with every backup and put
 * back at restore: the app secret (sessions, signed links) and the
 * self-made Content Credentials certificate and key (without it a restored
 * server makes a new one, and files signed before name another signer).
 */
export const SECRET_FILES = ["app-secret", "content-credentials.pem"] as const;

async function copySecrets(fromDir: string, toDir: string) {
  for (const name of SECRET_FILES) {
    const from = path.join(fromDir, name);
    if (fs.existsSync(from)) await copyOwnerOnly(from, path.join(toDir, name));
  }
}

export interface BackupOptions {
  /** Runs between the database snapshot and the copy of the files (tests use it to change files meanwhile). */
  afterSnapshot?: () => Promise<void>;
}

export async function backupDataDir(
  dataDir: string,
  destination: string,
  options: BackupOptions = {},
) {
  const source = path.join(dataDir, DATABASE_FILE);
  if (!fs.existsSync(source)) throw new Error(`No database at ${source}.`);
  if (fs.existsSync(destination) && fs.readdirSync(destination).length > 0) {
    throw new Error(`The backup folder ${destination} is not empty.`);
  }
  ensureOwnerOnlyDir(destination);
  const copy = path.join(destination, DATABASE_FILE);
  // SQLite writes into the empty owner-only file, keeping its mode (and gives its journal the same).
  ensureOwnerOnlyFile(copy);
  const live = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    await live.backup(copy);
  } finally {
    live.close();
  }
  restrictExistingFile(copy);
  await options.afterSnapshot?.();
  const filesDir = path.join(dataDir, "files");
  let files = 0;
  let recovered = 0;
  if (fs.existsSync(filesDir)) {
    await copyLiveFiles(filesDir, path.join(destination, "files"));
    recovered = await copyFilesDeletedSinceSnapshot(
      path.join(destination, DATABASE_FILE),
      filesDir,
      path.join(destination, "files"),
    );
    files = countFiles(path.join(destination, "files"));
  }
  await copySecrets(dataDir, destination);
  return { database: path.join(destination, DATABASE_FILE), files, recovered };
}

/**
 * On PostgreSQL the database lives on the database server, not in DATA_DIR,
 * and this command does not copy it: the provider's backups (Fly Managed
 * Postgres keeps daily snapshots and point-in-time recovery) or `pg_dump`
 * do. What it copies is the rest of the data directory: the files and the
 * app secret, into a folder that says in DATABASE-NOT-INCLUDED.txt how to
 * dump and restore the database.
 */
export const POSTGRES_NOTE_FILE = "DATABASE-NOT-INCLUDED.txt";
export const POSTGRES_DUMP_FILE = "selfie-studio.dump";

/** The exact commands that dump and restore the PostgreSQL database (the direct URL: a pooler in transaction mode breaks pg_dump). */
export function postgresDumpCommands(dumpFile = POSTGRES_DUMP_FILE) {
  return {
    dump: `pg_dump --format=custom --no-owner --no-privileges --file=${dumpFile} "$DATABASE_DIRECT_URL"`,
    restore: `pg_restore --no-owner --no-privileges --single-transaction --exit-on-error --dbname="$DATABASE_DIRECT_URL" ${dumpFile}`,
  };
}

/** What the backup folder and the command's output say about the database on PostgreSQL. */
export function postgresBackupNote(): string[] {
  const { dump, restore } = postgresDumpCommands();
  return [
    "The database is on PostgreSQL (DATABASE_URL): this backup does NOT contain it.",
    "It holds the files and the app secret only. Back the database up with your provider's",
    "backups (Fly Managed Postgres: daily snapshots and point-in-time recovery), or dump it,",
    "first, then run `npm run backup` for the files (a file removed after the dump is still",
    "taken from the deleted files kept for 15 minutes):",
    `  ${dump}`,
    "Restore: into an EMPTY database, then `npm run restore -- <this folder>` for the files:",
    `  ${restore}`,
    "(DATABASE_DIRECT_URL is the direct, unpooled URL; use DATABASE_URL when there is no pooler.)",
  ];
}

/**
 * The PostgreSQL installation's backup: the files and the app secret, and the
 * note above; no database. Files removed meanwhile and still kept under
 * .deleted/ are copied too, so a dump taken just before names no missing
 * file (the restored server's orphan sweep removes the extras).
 */
export async function backupFilesOnly(dataDir: string, destination: string) {
  if (fs.existsSync(destination) && fs.readdirSync(destination).length > 0) {
    throw new Error(`The backup folder ${destination} is not empty.`);
  }
  ensureOwnerOnlyDir(destination);
  await fsp.writeFile(
    path.join(destination, POSTGRES_NOTE_FILE),
    postgresBackupNote().join("\n") + "\n",
    { mode: OWNER_ONLY_FILE },
  );
  const filesDir = path.join(dataDir, "files");
  const copyDir = path.join(destination, "files");
  let files = 0;
  let recovered = 0;
  if (fs.existsSync(filesDir)) {
    await copyLiveFiles(filesDir, copyDir);
    recovered = await copyKeptDeletedFiles(filesDir, copyDir);
    files = countFiles(copyDir);
  }
  await copySecrets(dataDir, destination);
  return { files, recovered };
}

/**
 * On PostgreSQL: puts a backup's files and app secret into the data directory
 * and says what to do for the database, which this does not restore. A backup
 * taken on SQLite holds its database file: `npm run db:copy` moves it into
 * PostgreSQL. A data directory that already has files is replaced only with force.
 */
export async function restoreFilesOnly(
  backupDir: string,
  dataDir: string,
  options: { force?: boolean } = {},
): Promise<{ databaseStep: string }> {
  const sqliteCopy = path.join(backupDir, DATABASE_FILE);
  const note = path.join(backupDir, POSTGRES_NOTE_FILE);
  if (!fs.existsSync(sqliteCopy) && !fs.existsSync(note))
    throw new Error(
      `${backupDir} holds neither ${DATABASE_FILE} nor ${POSTGRES_NOTE_FILE}: not a backup.`,
    );
  const targetFiles = path.join(dataDir, "files");
  if (hasLiveFiles(targetFiles) && !options.force) {
    throw new Error(
      `${dataDir} already holds files. Stop the server and pass --force to replace them.`,
    );
  }
  await fsp.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const files = path.join(backupDir, "files");
  if (fs.existsSync(files)) {
    await fsp.rm(targetFiles, { recursive: true, force: true });
    await fsp.cp(files, targetFiles, { recursive: true });
  }
  await copySecrets(backupDir, dataDir);
  const databaseStep = fs.existsSync(sqliteCopy)
    ? `The database was NOT restored: this backup holds an SQLite database. Copy it into the (empty) PostgreSQL database with:\n  npm run db:copy -- --from sqlite:${sqliteCopy} --to "$DATABASE_URL"`
    : `The database was NOT restored: this backup holds none. Restore your provider's backup, or a dump into an EMPTY database with:\n  ${postgresDumpCommands().restore}`;
  return { databaseStep };
}

function hasLiveFiles(filesDir: string): boolean {
  if (!fs.existsSync(filesDir)) return false;
  return fs
    .readdirSync(filesDir)
    .some(
      (name) => name !== "tmp" && name !== DELETED_DIR && countFiles(path.join(filesDir, name)) > 0,
    );
}

/** Copies the files folder but tmp/, .deleted/ and half-written files. */
async function copyLiveFiles(filesDir: string, copyDir: string) {
  const skipped = ["tmp", DELETED_DIR];
  await fsp.cp(filesDir, copyDir, {
    recursive: true,
    filter: (from) => {
      const relative = path.relative(filesDir, from);
      return (
        !skipped.some((dir) => relative === dir || relative.startsWith(`${dir}${path.sep}`)) &&
        !from.endsWith(".partial")
      );
    },
  });
}

/** Every file kept under .deleted/ that the copy lacks, put back at its key. */
async function copyKeptDeletedFiles(filesDir: string, copyDir: string): Promise<number> {
  const kept = path.join(filesDir, DELETED_DIR);
  if (!fs.existsSync(kept)) return 0;
  let recovered = 0;
  for (const key of listKeys(kept)) {
    if (!isValidFileKey(key)) continue;
    const target = path.join(copyDir, key);
    if (fs.existsSync(target)) continue;
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.copyFile(path.join(kept, key), target);
    recovered += 1;
  }
  return recovered;
}

function listKeys(dir: string, prefix = ""): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? listKeys(path.join(dir, entry.name), `${prefix}${entry.name}/`)
        : [`${prefix}${entry.name}`],
    );
}

/** Puts a backup into a data directory that holds no database yet (or, with force, replaces it). */
export async function restoreDataDir(
  backupDir: string,
  dataDir: string,
  options: { force?: boolean } = {},
) {
  const database = path.join(backupDir, DATABASE_FILE);
  if (!fs.existsSync(database))
    throw new Error(`${backupDir} holds no ${DATABASE_FILE}: not a backup.`);
  const target = path.join(dataDir, DATABASE_FILE);
  if (fs.existsSync(target) && !options.force) {
    throw new Error(
      `${dataDir} already holds a database. Stop the server and pass --force to replace it.`,
    );
  }
  await fsp.mkdir(dataDir, { recursive: true, mode: 0o700 });
  for (const suffix of ["", "-wal", "-shm"]) await fsp.rm(target + suffix, { force: true });
  await copyOwnerOnly(database, target);
  const files = path.join(backupDir, "files");
  if (fs.existsSync(files)) {
    await fsp.rm(path.join(dataDir, "files"), { recursive: true, force: true });
    await fsp.cp(files, path.join(dataDir, "files"), { recursive: true });
  }
  await copySecrets(backupDir, dataDir);
  // Check the copy before declaring success.
  const check = new SQLite(target, { readonly: true });
  try {
    const result = check.pragma("integrity_check", { simple: true });
    if (result !== "ok")
      throw new Error(`The restored database failed its integrity check: ${result}`);
  } finally {
    check.close();
  }
}

/** Copies a file and makes the copy owner-only (a copy takes its source's mode, which an older version left 0644). */
async function copyOwnerOnly(from: string, to: string): Promise<void> {
  await fsp.copyFile(from, to);
  await fsp.chmod(to, OWNER_ONLY_FILE);
}

/**
 * A file the snapshot names may have been removed before the copy reached it;
 * removed files wait under .deleted/ for a while, so the copy takes it from there.
 */
async function copyFilesDeletedSinceSnapshot(
  snapshot: string,
  filesDir: string,
  copyDir: string,
): Promise<number> {
  const db = new SQLite(snapshot, { readonly: true, fileMustExist: true });
  let keys: string[];
  try {
    keys = FILE_KEY_COLUMNS.flatMap(([table, column]) =>
      (
        db
          .prepare(`select ${column} as key from ${table} where ${column} is not null`)
          .all() as Array<{ key: string }>
      ).flatMap(({ key }) => (table === "listing_platforms" ? artifactKeys(key) : [key])),
    );
  } finally {
    db.close();
  }
  let recovered = 0;
  for (const key of new Set(keys)) {
    if (!isValidFileKey(key)) continue;
    const target = path.join(copyDir, key);
    const kept = path.join(filesDir, DELETED_DIR, key);
    if (fs.existsSync(target) || !fs.existsSync(kept)) continue;
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.copyFile(kept, target);
    recovered += 1;
  }
  return recovered;
}

function countFiles(dir: string): number {
  let count = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    count += entry.isDirectory() ? countFiles(path.join(dir, entry.name)) : 1;
  }
  return count;
}
