import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { newId } from "~/infra/ids.server";

/**
 * The database, its WAL and shared-memory side files, backups and the stored
 * files hold every buyer's and creator's data: they are readable and writable by the owner of
 * the server process only (0600; folders 0700), whatever the process's umask.
 */
export const OWNER_ONLY_FILE = 0o600;
export const OWNER_ONLY_DIR = 0o700;

/** Makes the file owner-only, creating it empty first when it does not exist. */
export function ensureOwnerOnlyFile(file: string): void {
  fs.closeSync(fs.openSync(file, "a", OWNER_ONLY_FILE));
  fs.chmodSync(file, OWNER_ONLY_FILE);
}

/** Makes the file owner-only when it exists (a side file SQLite may not have made yet). */
export function restrictExistingFile(file: string): void {
  try {
    fs.chmodSync(file, OWNER_ONLY_FILE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Creates the folder (and its parents) owner-only; an existing folder is made owner-only too. */
export function ensureOwnerOnlyDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: OWNER_ONLY_DIR });
  fs.chmodSync(dir, OWNER_ONLY_DIR);
}

/** Creates a folder, and any missing parent, owner-only (an existing one is left as it is). */
export async function makeOwnerOnlyDir(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: OWNER_ONLY_DIR });
}

/** A file store's scratch folder, `tmp` under `root` (owner-only), made when missing. */
export async function scratchDirUnder(root: string): Promise<string> {
  const dir = path.join(root, "tmp");
  await makeOwnerOnlyDir(dir);
  return dir;
}

/** A fresh name for a scratch file in `root`'s scratch folder. */
export async function scratchPathUnder(root: string): Promise<string> {
  return path.join(await scratchDirUnder(root), `${newId()}.upload`);
}
