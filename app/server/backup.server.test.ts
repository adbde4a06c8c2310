import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backupDataDir, restoreDataDir } from "./backup.server";
import { getConfig } from "./config.server";
import { getDb, migrateToLatest, openDatabase } from "./db.server";
import { getFileStore, newFileKey } from "./file-store.server";
import { createUser, findUserByEmail } from "~/services/users.server";
import { verifyPassword } from "~/services/passwords.server";

const temp = () => fs.mkdtempSync(path.join(os.tmpdir(), "selfie-backup-"));

describe("backup and restore", () => {
  it("copies a live data directory (database and files) and restores it into a fresh one", async () => {
    const db = getDb();
    await createUser(db, { email: "keep@example.com", password: "keep-me-1", firstName: "Kee", lastName: "P" });
    const key = newFileKey("originals", "png");
    await getFileStore().write(key, Buffer.from("image bytes"));
    // Writes still in the WAL are part of the snapshot.
    const backupDir = path.join(temp(), "backup");
    const { files } = await backupDataDir(getConfig().dataDir, backupDir);
    expect(files).toBeGreaterThanOrEqual(1);
    // A write after the backup is not in it.
    await createUser(db, { email: "later@example.com", password: "later-1", firstName: "L", lastName: "A" });

    const fresh = path.join(temp(), "data");
    await restoreDataDir(backupDir, fresh);
    const restored = openDatabase(path.join(fresh, "selfie-studio.sqlite"));
    try {
      await migrateToLatest(restored);
      const user = await findUserByEmail(restored, "keep@example.com");
      expect(user).toBeDefined();
      expect(await verifyPassword("keep-me-1", user!.password_hash)).toBe(true);
      expect(await findUserByEmail(restored, "later@example.com")).toBeUndefined();
      expect(fs.readFileSync(path.join(fresh, "files", key), "utf8")).toBe("image bytes");
      expect(fs.readFileSync(path.join(fresh, "app-secret"), "utf8")).toBe(
        fs.readFileSync(path.join(getConfig().dataDir, "app-secret"), "utf8"),
      );
    } finally {
      await restored.destroy();
    }
  });

  it("refuses to overwrite a data directory that has a database, and a non-empty backup folder", async () => {
    const backupDir = path.join(temp(), "b");
    await backupDataDir(getConfig().dataDir, backupDir);
    await expect(backupDataDir(getConfig().dataDir, backupDir)).rejects.toThrow(/not empty/);
    await expect(restoreDataDir(backupDir, getConfig().dataDir)).rejects.toThrow(/already holds a database/);
    await expect(restoreDataDir(temp(), temp())).rejects.toThrow(/not a backup/);
  });
});
