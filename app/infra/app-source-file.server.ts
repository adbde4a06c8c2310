import fs from "node:fs";
import path from "node:path";
import url from "node:url";

/**
 * A file of the app's source tree that runs as it is (a worker thread's
 * script, plain JavaScript), by its path under app/. From the source tree
 * (tsx, vitest) and from the server build (build/index.js, which holds this
 * module) alike: the folders above this module, then above the working
 * directory, are searched for app/<path>. The container image copies app/ for
 * this.
 */
export function findAppSourceFile(pathUnderApp: string): string {
  const here = path.dirname(url.fileURLToPath(import.meta.url));
  for (const start of [here, process.cwd()]) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, "app", pathUnderApp);
      if (fs.existsSync(candidate)) return candidate;
      if (path.dirname(dir) === dir) break;
    }
  }
  throw new Error(`app/${pathUnderApp} is missing: the server needs it beside its build.`);
}
