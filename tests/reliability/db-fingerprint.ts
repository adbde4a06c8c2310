import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { sql } from "kysely";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { tableNames } from "#tests/setup/db-tables";

/**
 * A checksum of every table in the database (listed from the engine's catalog,
 * so new tables are covered) and of the file store's files, to show that a refused
 * request changed nothing.
 */
export type Fingerprint = Record<string, string>;

/**
 * Columns that record that something was read, not what is stored: a token's
 * last use is stamped on any authenticated request, refused or not.
 */
const READ_STAMPS: Record<string, readonly string[]> = { api_tokens: ["last_used_at"] };

/**
 * Tables that count requests, not what is stored: a rate limit counts a call
 * whether it is refused or not (in memory on one SQLite process, in
 * rate_limit_hits on PostgreSQL), as it must to slow down whoever sends bad ones.
 */
const REQUEST_COUNTS = new Set(["rate_limit_hits"]);

export async function fingerprint(): Promise<Fingerprint> {
  const db = getDb();
  const result: Fingerprint = {};
  for (const name of await tableNames(db)) {
    if (REQUEST_COUNTS.has(name)) continue;
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    // Every row's content, sorted here: a stable order on either engine, whatever the table's keys.
    const stamps = READ_STAMPS[name] ?? [];
    const lines = rows.rows
      .map((row) =>
        Object.fromEntries(Object.entries(row).filter(([column]) => !stamps.includes(column))),
      )
      .map((row) =>
        JSON.stringify(row, (_key, value) => (typeof value === "bigint" ? String(value) : value)),
      )
      .sort();
    result[`table:${name}`] = `${lines.length} rows ${hash(lines.join("\n"))}`;
  }
  result.files = hash(listFiles(getConfig().filesDir).join("\n"));
  return result;
}

/** The file store's files (not its scratch area) with their sizes. */
function listFiles(root: string, prefix = ""): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(root, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const relative = path.posix.join(prefix, entry.name);
    if (entry.isDirectory()) {
      if (relative !== "tmp") files.push(...listFiles(root, relative));
    } else {
      files.push(`${relative} ${fs.statSync(path.join(root, relative)).size}`);
    }
  }
  return files.sort();
}

function hash(text: string): string {
  return crypto.createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** Fails with the names of whatever changed, leaving out the tables named in `except`. */
export function expectUnchanged(
  before: Fingerprint,
  after: Fingerprint,
  what: string,
  except: readonly string[] = [],
) {
  const skip = new Set(except.map((table) => `table:${table}`));
  const changed = Object.keys({ ...before, ...after }).filter(
    (key) => !skip.has(key) && before[key] !== after[key],
  );
  expect(changed, `${what} changed stored data`).toEqual([]);
}
