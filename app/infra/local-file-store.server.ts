import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { DELETED_FILES_KEPT_MS, isValidFileKey, type FileStore } from "~/infra/file-keys.server";
import { isVariantKey, socialCardOf, variantKeysOf } from "~/lib/image-variants";
import {
  ensureOwnerOnlyDir,
  makeOwnerOnlyDir,
  OWNER_ONLY_FILE,
  scratchDirUnder,
  scratchPathUnder,
} from "~/infra/owner-only-files.server";

/**
 * Files on the data volume under DATA_DIR/files, one file per key. Writes go
 * to a temporary name first and are renamed into place, so a crash never
 * leaves half a file under a real key.
 *
 * Selfies are faces, and listings' files are paid for: every file is the
 * server user's alone (0600) and every folder too (0700), whatever the
 * process's umask, as the database and the exports are. The server serves
 * /media itself, so nobody else needs to read them.
 */
/** Removed files wait here (outside every area) until purgeDeletedFiles. */
export const DELETED_DIR = ".deleted";

export class LocalFileStore implements FileStore {
  readonly kind = "local";
  constructor(public readonly root: string) {}

  /** The absolute path of a key; refuses anything that is not a key we made. */
  pathOf(key: string): string {
    if (!isValidFileKey(key)) throw new Error(`Not a file key: ${key}`);
    return path.join(this.root, key);
  }

  async write(key: string, data: Buffer | Uint8Array): Promise<void> {
    const target = this.pathOf(key);
    await makeOwnerOnlyDir(path.dirname(target));
    const temporary = `${target}.${process.pid}.${Date.now()}.partial`;
    await fsp.writeFile(temporary, data, { mode: OWNER_ONLY_FILE });
    await fsp.rename(temporary, target);
  }

  /** Moves a scratch file (on the same volume) under a key: a rename; the file becomes owner-only, however it was made. */
  async putFile(key: string, sourcePath: string): Promise<void> {
    const target = this.pathOf(key);
    await makeOwnerOnlyDir(path.dirname(target));
    await fsp.chmod(sourcePath, OWNER_ONLY_FILE);
    await fsp.rename(sourcePath, target);
  }

  read(key: string): Promise<Buffer> {
    return fsp.readFile(this.pathOf(key));
  }

  stream(key: string): Readable {
    return fs.createReadStream(this.pathOf(key));
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fsp.access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }

  async size(key: string): Promise<number> {
    return (await fsp.stat(this.pathOf(key))).size;
  }

  /**
   * Removes a file from its key; a file already gone is not an error. The
   * bytes are kept under .deleted/ for DELETED_FILES_KEPT_MS, so a backup
   * whose database snapshot still names the file can copy it
   * (docs/decisions/010-deleted-files-kept-briefly.md); then they are purged.
   */
  async discard(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async remove(key: string | null | undefined): Promise<void> {
    if (!key) return;
    await this.moveToDeleted(key);
    // An image's variants (smaller and AVIF/WebP copies, app/lib/image-variants.ts) go with it.
    if (/\.(png|jpg|webp)$/.test(key) && !isVariantKey(key)) {
      await Promise.all(
        variantKeysOf(key)
          .filter(isValidFileKey)
          .map((variant) => this.moveToDeleted(variant)),
      );
    }
    // A listing preview's social card goes with it too.
    const card = socialCardOf(key);
    // With its own variants, should anyone have asked for one.
    if (card && isValidFileKey(card)) await this.remove(card);
  }

  private async moveToDeleted(key: string): Promise<void> {
    const from = this.pathOf(key);
    const to = this.deletedPathOf(key);
    await makeOwnerOnlyDir(path.dirname(to));
    try {
      await fsp.rename(from, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    const now = new Date();
    await fsp.utimes(to, now, now); // the purge counts from the deletion
    await fsp.chmod(to, OWNER_ONLY_FILE); // a file stored before files were owner-only
  }

  /** Scratch files live on the same volume (same filesystem, so putFile() is a rename). */
  scratchDir(): Promise<string> {
    return scratchDirUnder(this.root);
  }

  scratchPath(): Promise<string> {
    return scratchPathUnder(this.root);
  }

  /** Where a removed file waits for its purge. */
  deletedPathOf(key: string): string {
    this.pathOf(key); // the same key check
    return path.join(this.root, DELETED_DIR, key);
  }

  async isReachable(): Promise<boolean> {
    try {
      await fsp.access(this.root, fs.constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * At start: the files folder becomes owner-only (0700), so files and folders
 * an older version made readable to others (0644 in 0755) are out of
 * everyone else's reach too (a folder no one else may enter hides all beneath it).
 * A folder the server's user does not own is left as it is, with a warning.
 */
export function closeFilesToOthers(
  root: string,
  warn: (line: string) => void = (line) => console.warn(line),
): void {
  try {
    ensureOwnerOnlyDir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") throw error;
    warn(`${root} belongs to another user: it could not be made owner-only (0700).`);
  }
}

/** Purges removed files kept longer than `keptMs`. Answers how many went. */
export async function purgeDeletedFiles(
  root: string,
  now = Date.now(),
  keptMs = DELETED_FILES_KEPT_MS,
): Promise<number> {
  const dir = path.join(root, DELETED_DIR);
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return 0; // nothing removed yet
  }
  let purged = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    try {
      if (now - (await fsp.stat(file)).mtimeMs < keptMs) continue;
      await fsp.rm(file, { force: true });
      purged += 1;
    } catch {
      // gone meanwhile
    }
  }
  return purged;
}
