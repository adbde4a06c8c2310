import inspector from "node:inspector/promises";
import path from "node:path";
import url from "node:url";

/**
 * The project's source files whose functions run while `run` runs, read from
 * V8's precise coverage: a file counts when one of its functions (not the
 * module's own top level, which runs once at import) was called during the
 * run. Counts are taken before and after, so what ran while modules were
 * imported or earlier flows ran is left out.
 */
export async function filesRunBy(run: () => Promise<void>): Promise<string[]> {
  const session = new inspector.Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
  try {
    const before = await callCounts(session);
    await run();
    const after = await callCounts(session);
    const files = new Set<string>();
    for (const [key, count] of after) {
      if (count > (before.get(key) ?? 0)) files.add(key.slice(0, key.indexOf("#")));
    }
    return [...files].flatMap((file) => projectFile(file) ?? []).sort();
  } finally {
    await session.post("Profiler.stopPreciseCoverage");
    session.disconnect();
  }
}

async function callCounts(session: inspector.Session): Promise<Map<string, number>> {
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const counts = new Map<string, number>();
  for (const script of result) {
    for (const fn of script.functions) {
      const [whole] = fn.ranges;
      if (!whole || whole.startOffset === 0) continue;
      const key = `${script.url}#${whole.startOffset}`;
      counts.set(key, (counts.get(key) ?? 0) + whole.count);
    }
  }
  return counts;
}

const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../..");

/** The file's path in the project when it is one of app/ or db/ (not a test), else null. */
function projectFile(scriptUrl: string): string | null {
  const file = scriptUrl.startsWith("file://") ? new URL(scriptUrl).pathname : scriptUrl;
  const relative = path.relative(ROOT, file).split(path.sep).join("/");
  if (!/^(app|db)\//.test(relative)) return null;
  if (/\.test\.tsx?$/.test(relative)) return null;
  return relative;
}

/** The files grouped by their floor (app/features/<feature>, app/routes, app/infra ...). */
export function byFloor(files: string[]): Map<string, number> {
  const floors = new Map<string, number>();
  for (const file of files) {
    const parts = file.split("/");
    const floor =
      parts[1] === "features" ? parts.slice(0, 3).join("/") : parts.slice(0, 2).join("/");
    floors.set(floor, (floors.get(floor) ?? 0) + 1);
  }
  return floors;
}
