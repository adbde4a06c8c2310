import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import SQLite from "better-sqlite3";

/**
 * A consistent copy of a data directory while the server runs: first the
 * database through SQLite's online backup API (a transactionally consistent
 * snapshot, WAL included), then the files and the app secret. Files written
 * after the snapshot may be copied too (harmless extras); `tmp/` is skipped.
 */
export const DATABASE_FILE = "selfie-studio.sqlite";

export async function backupDataDir(dataDir: string, destination: string) {
  const source = path.join(dataDir, DATABASE_FILE);
  if (!fs.existsSync(source)) throw new Error(`No database at ${source}.`);
  if (fs.existsSync(destination) && fs.readdirSync(destination).length > 0) {
    throw new Error(`The backup folder ${destination} is not empty.`);
  }
  await fsp.mkdir(destination, { recursive: true });
  const live = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    await live.backup(path.join(destination, DATABASE_FILE));
  } finally {
    live.close();
  }
  const filesDir = path.join(dataDir, "files");
  let files = 0;
  if (fs.existsSync(filesDir)) {
    await fsp.cp(filesDir, path.join(destination, "files"), {
      recursive: true,
      filter: (from) => {
        const relative = path.relative(filesDir, from);
        return relative !== "tmp" && !relative.startsWith(`tmp${path.sep}`) && !from.endsWith(".partial");
      },
    });
    files = countFiles(path.join(destination, "files"));
  }
  const secret = path.join(dataDir, "app-secret");
  if (fs.existsSync(secret)) await fsp.copyFile(secret, path.join(destination, "app-secret"));
  return { database: path.join(destination, DATABASE_FILE), files };
}

/** Puts a backup into a data directory that holds no database yet (or, with force, replaces it). */
export async function restoreDataDir(backupDir: string, dataDir: string, options: { force?: boolean } = {}) {
  const database = path.join(backupDir, DATABASE_FILE);
  if (!fs.existsSync(database)) throw new Error(`${backupDir} holds no ${DATABASE_FILE}: not a backup.`);
  const target = path.join(dataDir, DATABASE_FILE);
  if (fs.existsSync(target) && !options.force) {
    throw new Error(`${dataDir} already holds a database. Stop the server and pass --force to replace it.`);
  }
  await fsp.mkdir(dataDir, { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) await fsp.rm(target + suffix, { force: true });
  await fsp.copyFile(database, target);
  const files = path.join(backupDir, "files");
  if (fs.existsSync(files)) {
    await fsp.rm(path.join(dataDir, "files"), { recursive: true, force: true });
    await fsp.cp(files, path.join(dataDir, "files"), { recursive: true });
  }
  const secret = path.join(backupDir, "app-secret");
  if (fs.existsSync(secret)) await fsp.copyFile(secret, path.join(dataDir, "app-secret"));
  // Check the copy before declaring success.
  const check = new SQLite(target, { readonly: true });
  try {
    const result = check.pragma("integrity_check", { simple: true });
    if (result !== "ok") throw new Error(`The restored database failed its integrity check: ${result}`);
  } finally {
    check.close();
  }
}

function countFiles(dir: string): number {
  let count = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    count += entry.isDirectory() ? countFiles(path.join(dir, entry.name)) : 1;
  }
  return count;
}
