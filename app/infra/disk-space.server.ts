import fsp from "node:fs/promises";
import type { Config } from "~/infra/config.server";
import { insufficientStorage } from "~/infra/errors.server";

/**
 * The free-space floor of the data volume. Anything that writes files
 * (uploads, styles, optimizations, publishing) asks first and is refused with
 * a 507 while the volume holds less than MIN_FREE_DISK_MB, instead of failing
 * halfway through a write. Only DATA_DIR's volume is measured: with SQLite it
 * holds the database file too; with PostgreSQL (DATABASE_URL) the database
 * lives on its own server and its space is that server's to watch.
 */

export const OUT_OF_STORAGE = "The server is out of storage space. Please try again later.";

/** Answers the bytes an unprivileged process may still write under `dir`. */
export type FreeBytesProbe = (dir: string) => Promise<number>;

export const statfsFreeBytes: FreeBytesProbe = async (dir) => {
  const stats = await fsp.statfs(dir);
  return stats.bavail * stats.bsize;
};

let probe: FreeBytesProbe = statfsFreeBytes;

/**
 * Replaces how free space is measured (tests simulate a full volume with it).
 * Answers a function that puts the previous probe back.
 */
export function setFreeBytesProbe(next: FreeBytesProbe): () => void {
  const previous = probe;
  probe = next;
  return () => {
    probe = previous;
  };
}

/** Throws a 507 HttpError when DATA_DIR's volume has less free space than MIN_FREE_DISK_MB. */
export async function ensureFreeSpace(
  config: Pick<Config, "dataDir" | "MIN_FREE_DISK_MB">,
): Promise<void> {
  if (config.MIN_FREE_DISK_MB <= 0) return;
  let free: number;
  try {
    free = await probe(config.dataDir);
  } catch {
    return; // A volume that cannot tell its free space is not refused for it; the write itself still reports a full disk.
  }
  if (free < config.MIN_FREE_DISK_MB * 1024 * 1024) throw insufficientStorage(OUT_OF_STORAGE);
}
