import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/infra/db.server";

/**
 * SQLite keeps a deleted row's bytes on the page it freed until something
 * overwrites them: with `secure_delete` on (db.server.ts) they are zeroed at
 * the deletion, so an erased value cannot be read back from the file.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secure-delete-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Writes a row carrying `marker` (with enough filler to fill pages), deletes it, checkpoints. */
async function writeDeleteCheckpoint(file: string, marker: string, secureDelete: boolean) {
  const filler = "x".repeat(3000);
  if (secureDelete) {
    const db = openDatabase({ file });
    await sql`create table notes (id integer primary key, body text)`.execute(db);
    for (let i = 0; i < 20; i++)
      await sql`insert into notes (body) values (${`${marker}-${i} ${filler}`})`.execute(db);
    await sql`delete from notes`.execute(db);
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    await db.destroy();
  } else {
    const db = new SQLite(file);
    db.pragma("journal_mode = WAL");
    db.pragma("secure_delete = OFF");
    db.exec("create table notes (id integer primary key, body text)");
    const insert = db.prepare("insert into notes (body) values (?)");
    for (let i = 0; i < 20; i++) insert.run(`${marker}-${i} ${filler}`);
    db.exec("delete from notes");
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
  }
}

const fileBytes = (file: string) =>
  Buffer.concat(
    ["", "-wal", "-journal"]
      .map((suffix) => file + suffix)
      .filter((name) => fs.existsSync(name))
      .map((name) => fs.readFileSync(name)),
  );

describe("secure_delete", () => {
  it("is on in the app's SQLite connection", async () => {
    const db = openDatabase({ file: path.join(dir, "pragma.sqlite") });
    const { rows } = await sql<{ secure_delete: number }>`pragma secure_delete`.execute(db);
    await db.destroy();
    expect(rows[0]?.secure_delete).toBe(1);
  });

  it("leaves no deleted value in the database file's free pages", async () => {
    const file = path.join(dir, "erased.sqlite");
    await writeDeleteCheckpoint(file, "erased-value-7f3c9a", true);
    expect(fileBytes(file).includes("erased-value-7f3c9a")).toBe(false);
  });

  it("(without it, SQLite would have left the value readable: what the test above guards)", async () => {
    const file = path.join(dir, "kept.sqlite");
    await writeDeleteCheckpoint(file, "kept-value-51b2e8", false);
    expect(fileBytes(file).includes("kept-value-51b2e8")).toBe(true);
  });
});
