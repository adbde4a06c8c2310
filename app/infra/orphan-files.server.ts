import fsp from "node:fs/promises";
import path from "node:path";
import type { DB } from "~/infra/db.server";
import { referencedFileKeys, ROW_OWNED_AREAS } from "~/infra/file-references.server";
import { keyStem, variantSourceStem } from "~/lib/image-variants";

/**
 * Files without a row, swept once at start (docs/decisions/008-orphan-file-sweep.md).
 *
 * Every writer stores the file first and then commits the row that names it,
 * and every deleter commits the row's removal first and then removes the file.
 * A process killed between the two steps therefore leaves at worst a file no
 * row names (never a row without its file), plus perhaps a half-written
 * `.partial`. Before the worker starts and before the first request, no work
 * of this process is in flight, so such a file that is older than the start
 * is left over by a process that died: it is removed.
 */
export interface OrphanSweepResult {
  removed: string[];
  partials: number;
}

export async function sweepOrphanFiles(
  db: DB,
  filesDir: string,
  startedAt: Date,
): Promise<OrphanSweepResult> {
  const referenced = await referencedFileKeys(db);
  // A variant of a referenced image (app/lib/image-variants.ts) is kept with it.
  const referencedStems = new Set([...referenced].map(keyStem));
  const result: OrphanSweepResult = { removed: [], partials: 0 };
  const cutoff = startedAt.getTime();
  for (const area of ROW_OWNED_AREAS) {
    const dir = path.join(filesDir, area);
    let names: string[];
    try {
      names = await fsp.readdir(dir);
    } catch {
      continue; // no such area yet
    }
    for (const name of names) {
      const file = path.join(dir, name);
      const key = `${area}/${name}`;
      const partial = name.endsWith(".partial");
      if (!partial && (referenced.has(key) || referencedStems.has(variantSourceStem(key) ?? "")))
        continue;
      try {
        const stat = await fsp.stat(file);
        if (!stat.isFile() || stat.mtimeMs >= cutoff) continue;
        await fsp.rm(file, { force: true });
      } catch {
        continue; // gone meanwhile
      }
      if (partial) result.partials += 1;
      else result.removed.push(key);
    }
  }
  return result;
}
