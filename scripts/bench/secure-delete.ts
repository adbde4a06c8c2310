import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { row, type BenchRow } from "./measure";

/**
 * What SQLite's `secure_delete` (on in the app, app/infra/db.server.ts) costs
 * a deletion: `rows` rows of about 2 kB each (a user with a bio, a stylized
 * image's metadata) written to two fresh WAL databases, then deleted one per
 * transaction, as an erasure's deletions are; the deletions per second with
 * the pragma on, beside the same with it off. Shown only: the deletion writes
 * zeros over the freed bytes, so it costs the pages written, not a search.
 */
export function benchSecureDelete(scratch: string, rows = 5_000): BenchRow[] {
  const dir = path.join(scratch, "secure-delete");
  fs.mkdirSync(dir, { recursive: true });
  const deletesPerSecond = (secureDelete: boolean) => {
    const file = path.join(dir, `${secureDelete ? "on" : "off"}.sqlite`);
    const db = new SQLite(file);
    try {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      db.pragma(`secure_delete = ${secureDelete ? "ON" : "OFF"}`);
      db.exec("create table notes (id integer primary key, body text)");
      const insert = db.prepare("insert into notes (id, body) values (?, ?)");
      db.transaction(() => {
        for (let id = 1; id <= rows; id++) insert.run(id, `${id} ${"x".repeat(2000)}`);
      })();
      db.pragma("wal_checkpoint(TRUNCATE)");
      const remove = db.prepare("delete from notes where id = ?");
      const started = performance.now();
      for (let id = 1; id <= rows; id++) remove.run(id);
      db.pragma("wal_checkpoint(TRUNCATE)");
      return rows / ((performance.now() - started) / 1000);
    } finally {
      db.close();
    }
  };
  // One unmeasured round each first, then the figures.
  deletesPerSecond(false);
  deletesPerSecond(true);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const off = deletesPerSecond(false);
  const on = deletesPerSecond(true);
  console.log(
    `\n  ${rows} deletions of 2 kB rows, one per transaction: ${on.toFixed(0)}/s with secure_delete, ${off.toFixed(0)}/s without.`,
  );
  return [
    row({
      name: `SQLite deletions of 2 kB rows with secure_delete on, ${rows} one per transaction`,
      value: on,
      baseline: off,
      unit: "deletions/s",
      limit: null,
      limitOf: "ratio",
      atLeast: true,
      against: "the same deletions with secure_delete off",
    }),
  ];
}

// Alone: npx tsx scripts/bench/secure-delete.ts (prints its figures, asserts nothing).
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const scratch = fs.mkdtempSync(path.join((await import("node:os")).tmpdir(), "selfie-bench-"));
  try {
    benchSecureDelete(scratch);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
