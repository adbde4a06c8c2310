import fsp from "node:fs/promises";
import path from "node:path";

/**
 * Scratch files (uploads being received, images being encoded) live in the
 * file store's tmp/ folder and are removed as soon as they are done with. One
 * left behind by a process that died is removed here once it is an hour old.
 */
export const SCRATCH_MAX_AGE_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 10 * 60 * 1000;

export async function sweepStaleScratchFiles(
  dir: string,
  now = Date.now(),
  maxAgeMs = SCRATCH_MAX_AGE_MS,
): Promise<number> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return 0; // no scratch folder yet
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const stat = await fsp.stat(file);
      if (stat.isFile() && now - stat.mtimeMs > maxAgeMs) {
        await fsp.rm(file, { force: true });
        removed += 1;
      }
    } catch {
      // gone meanwhile
    }
  }
  return removed;
}

let lastSweep = 0;

/** Sweeps in the background, at most every 10 minutes per process. */
export function sweepScratchSoon(dir: string, now = Date.now()): void {
  if (now - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now;
  void sweepStaleScratchFiles(dir, now).catch(() => {});
}
