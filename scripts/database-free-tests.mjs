// The vitest files that cannot reach the database: no chain of imports from
// the file leads to app/infra/db.server.ts. Their results cannot depend on the
// engine, so the PostgreSQL pass (scripts/test-postgres.mjs) leaves them to
// the SQLite pass instead of running them twice.
//
// The walk reads import specifiers with a regular expression and errs towards
// the database: a file whose own import it cannot resolve, that imports by a
// computed name, or that starts child processes (which may open the database
// from the environment) counts as reaching it.
import fs from "node:fs";
import path from "node:path";

const ROOTS = ["app", "db", "scripts", "tests"];
const DATABASE_MODULE = "app/infra/db.server.ts";
const ALIASES = [
  ["~/", "app/"],
  ["#db/", "db/"],
  ["#tests/", "tests/"],
];
const EXTENSIONS = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx"];
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\s*\(\s*)["']([^"']+)["']/g;
const COMPUTED_IMPORT = /\bimport\s*\(\s*[^"'\s)]/;
const CHILD_PROCESS = /child_process|\bspawn\(|\bexecFile\(|\bfork\(/;

function sourceFiles(root, dir) {
  const found = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".")) {
        found.push(...sourceFiles(root, relative));
      }
    } else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      found.push(relative);
    }
  }
  return found;
}

function resolveSpecifier(root, from, specifier) {
  let base;
  const alias = ALIASES.find(([prefix]) => specifier.startsWith(prefix));
  if (alias) base = alias[1] + specifier.slice(alias[0].length);
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else return { internal: false };
  const stems = [base, base.replace(/\.(m?js)$/, "")];
  for (const stem of stems) {
    for (const extension of EXTENSIONS) {
      const candidate = stem + extension;
      const full = path.join(root, candidate);
      if (fs.existsSync(full) && fs.statSync(full).isFile()) {
        return { internal: true, file: candidate };
      }
    }
  }
  return { internal: true, file: undefined };
}

/** Test files (paths relative to `root`) whose imports cannot reach the database. */
export function databaseFreeTestFiles(root = process.cwd()) {
  const files = ROOTS.flatMap((dir) =>
    fs.existsSync(path.join(root, dir)) ? sourceFiles(root, dir) : [],
  );
  const edges = new Map();
  const unsure = new Set();
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const imports = [];
    for (const match of text.matchAll(SPECIFIER)) {
      const resolved = resolveSpecifier(root, file, match[1]);
      if (!resolved.internal) continue;
      if (resolved.file) imports.push(resolved.file);
      else unsure.add(file);
    }
    if (COMPUTED_IMPORT.test(text) || CHILD_PROCESS.test(text)) unsure.add(file);
    edges.set(file, imports);
  }
  // Walk the imports backwards from the database module (and the unsure
  // files): whatever is met reaches the database.
  const importers = new Map();
  for (const [file, imports] of edges) {
    for (const imported of imports) {
      if (!importers.has(imported)) importers.set(imported, []);
      importers.get(imported).push(file);
    }
  }
  const reaching = new Set([DATABASE_MODULE, ...unsure]);
  const queue = [...reaching];
  while (queue.length > 0) {
    for (const importer of importers.get(queue.pop()) ?? []) {
      if (!reaching.has(importer)) {
        reaching.add(importer);
        queue.push(importer);
      }
    }
  }
  return files
    .filter((file) => /\.test\.tsx?$/.test(file) && !file.startsWith("tests/e2e/"))
    .filter((file) => !reaching.has(file))
    .sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const file of databaseFreeTestFiles()) console.log(file);
}
