import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  backupFilesOnly,
  DATABASE_FILE,
  POSTGRES_NOTE_FILE,
  restoreFilesOnly,
} from "~/infra/backup.server";
import { DELETED_DIR, newFileKey } from "~/infra/file-store.server";

/**
 * With DATABASE_URL on PostgreSQL, `npm run backup` copies the files and the
 * app secret and says plainly that the database is not in the backup, with
 * the pg_dump and pg_restore commands; `npm run restore` puts the files back
 * and says what to do for the database. (No database is contacted: these run
 * on either engine.)
 */
const run = promisify(execFile);
const tsx = path.resolve("node_modules/.bin/tsx");
const temp = () => fs.mkdtempSync(path.join(os.tmpdir(), "selfie-pg-backup-"));
const POSTGRES_URL = "postgres://selfie:secret@db.example.invalid:5432/selfie";

const removedKey = newFileKey("originals", "png");

function dataDirWithFiles() {
  const dataDir = temp();
  const write = (key: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dataDir, key)), { recursive: true });
    fs.writeFileSync(path.join(dataDir, key), text);
  };
  write("files/originals/a1.png", "original");
  write("files/stylized/b2.png", "styled");
  write(`files/${DELETED_DIR}/${removedKey}`, "removed after the dump");
  write("files/tmp/upload.partial", "half");
  write("files/originals/d4.png.partial", "half");
  write("app-secret", "the-secret-of-this-data-directory-0123456789");
  return dataDir;
}

async function script(name: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(tsx, [`scripts/${name}.ts`, ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        NODE_ENV: "development",
        ...env,
      },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("backup and restore on PostgreSQL", () => {
  it("copies the files (and those kept after deletion) and the secret, and a note that the database is not included", async () => {
    const dataDir = dataDirWithFiles();
    const backup = path.join(temp(), "backup");
    const { files, recovered } = await backupFilesOnly(dataDir, backup);
    expect(recovered).toBe(1);
    expect(files).toBe(3);
    expect(fs.existsSync(path.join(backup, DATABASE_FILE))).toBe(false);
    expect(fs.readFileSync(path.join(backup, "files", removedKey), "utf8")).toBe(
      "removed after the dump",
    );
    expect(fs.existsSync(path.join(backup, "files/tmp"))).toBe(false);
    expect(fs.existsSync(path.join(backup, "files", DELETED_DIR))).toBe(false);
    const note = fs.readFileSync(path.join(backup, POSTGRES_NOTE_FILE), "utf8");
    expect(note).toMatch(/does NOT contain it/);
    expect(note).toContain(
      'pg_dump --format=custom --no-owner --no-privileges --file=selfie-studio.dump "$DATABASE_DIRECT_URL"',
    );
    expect(note).toContain(
      'pg_restore --no-owner --no-privileges --single-transaction --exit-on-error --dbname="$DATABASE_DIRECT_URL" selfie-studio.dump',
    );
    expect(fs.statSync(backup).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(backup, "app-secret")).mode & 0o777).toBe(0o600);
    await expect(backupFilesOnly(dataDir, backup)).rejects.toThrow(/not empty/);

    const fresh = temp();
    const { databaseStep } = await restoreFilesOnly(backup, fresh);
    expect(databaseStep).toMatch(/database was NOT restored/);
    expect(databaseStep).toMatch(/pg_restore .*--dbname="\$DATABASE_DIRECT_URL"/);
    expect(fs.readFileSync(path.join(fresh, "files/stylized/b2.png"), "utf8")).toBe("styled");
    expect(fs.readFileSync(path.join(fresh, "app-secret"), "utf8")).toBe(
      "the-secret-of-this-data-directory-0123456789",
    );
    // Files already there are replaced only on purpose.
    await expect(restoreFilesOnly(backup, fresh)).rejects.toThrow(/already holds files/);
    await restoreFilesOnly(backup, fresh, { force: true });
    await expect(restoreFilesOnly(temp(), temp())).rejects.toThrow(/not a backup/);
  });

  it("points an SQLite backup restored on PostgreSQL at npm run db:copy", async () => {
    const backup = temp();
    fs.writeFileSync(path.join(backup, DATABASE_FILE), "");
    const { databaseStep } = await restoreFilesOnly(backup, temp());
    expect(databaseStep).toContain(
      `npm run db:copy -- --from sqlite:${path.join(backup, DATABASE_FILE)} --to "$DATABASE_URL"`,
    );
  });

  it("npm run backup and npm run restore say what they copy and what they do not", async () => {
    const dataDir = dataDirWithFiles();
    const backup = path.join(temp(), "backup");
    const env = { DATA_DIR: dataDir, DATABASE_URL: POSTGRES_URL, NODE_ENV: "development" };
    const backedUp = await script("backup", [backup], env);
    expect(backedUp.output).toContain(`Backed up 3 files and the app secret to ${backup}.`);
    expect(backedUp.output).toMatch(/this backup does NOT contain it/);
    expect(backedUp.output).toMatch(/pg_dump --format=custom/);
    expect(backedUp.output).not.toContain("secret@");
    expect(backedUp.code).toBe(0);

    const fresh = temp();
    const restored = await script("restore", [backup], { ...env, DATA_DIR: fresh });
    expect(restored.output).toMatch(/Restored the files and the app secret/);
    expect(restored.output).toMatch(/database was NOT restored/);
    expect(restored.code).toBe(0);
    expect(fs.readFileSync(path.join(fresh, "files/originals/a1.png"), "utf8")).toBe("original");
  });
});
