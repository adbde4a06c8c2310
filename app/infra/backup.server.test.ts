import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backupDataDir, restoreDataDir } from "~/infra/backup.server";
import { getConfig } from "~/infra/config.server";
import { getDb, migrateToLatest, openDatabase } from "~/infra/db.server";
import {
  DELETED_DIR,
  DELETED_FILES_KEPT_MS,
  getLocalFileStore,
  newFileKey,
  purgeDeletedFiles,
} from "~/infra/file-store.server";
import { createUser, findUserByEmail } from "~/features/accounts/users.server";
import { verifyPassword } from "~/features/accounts/passwords/passwords.server";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";

const temp = () => fs.mkdtempSync(path.join(os.tmpdir(), "selfie-backup-"));

// The SQLite backup copies the database file; on PostgreSQL the files-only backup below applies.
describe.skipIf(Boolean(process.env.DATABASE_URL))("backup and restore", () => {
  it("copies a live data directory (database and files) and restores it into a fresh one", async () => {
    const db = getDb();
    await createUser(db, {
      email: "keep@example.com",
      password: "keep-me-1",
      firstName: "Kee",
      lastName: "P",
    });
    const key = newFileKey("originals", "png");
    await getLocalFileStore().write(key, Buffer.from("image bytes"));
    // The self-made Content Credentials signer travels with the backup, as the app secret does.
    const signer = path.join(getConfig().dataDir, "content-credentials.pem");
    const madeHere = !fs.existsSync(signer);
    if (madeHere) fs.writeFileSync(signer, "a certificate and its key", { mode: 0o600 });
    // Writes still in the WAL are part of the snapshot.
    const backupDir = path.join(temp(), "backup");
    const { files } = await backupDataDir(getConfig().dataDir, backupDir);
    expect(files).toBeGreaterThanOrEqual(1);
    // A write after the backup is not in it.
    await createUser(db, {
      email: "later@example.com",
      password: "later-sunrise-1",
      firstName: "L",
      lastName: "A",
    });

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
      expect(fs.readFileSync(path.join(fresh, "content-credentials.pem"), "utf8")).toBe(
        fs.readFileSync(signer, "utf8"),
      );
      expect(fs.statSync(path.join(fresh, "content-credentials.pem")).mode & 0o777).toBe(0o600);
    } finally {
      if (madeHere) fs.rmSync(signer);
      await restored.destroy();
    }
  });

  it("keeps a file the snapshot names although it was deleted before the copy reached it", async () => {
    const { user } = await createTestUser();
    const stylized = await createStylizedImage(user.id);
    const store = getLocalFileStore();
    const backupDir = path.join(temp(), "backup");
    const { recovered } = await backupDataDir(getConfig().dataDir, backupDir, {
      // The creator deletes the styled image between the database snapshot and the copy of the files.
      afterSnapshot: async () => {
        await getDb().deleteFrom("stylized_images").where("id", "=", stylized.id).execute();
        await store.remove(stylized.file_key);
      },
    });
    expect(recovered).toBe(1);
    expect(await store.exists(stylized.file_key!)).toBe(false);
    expect(fs.existsSync(path.join(backupDir, "files", stylized.file_key!))).toBe(true);
    expect(fs.existsSync(path.join(backupDir, "files", DELETED_DIR))).toBe(false);
  });

  it("purges deleted files once they were kept long enough", async () => {
    const store = getLocalFileStore();
    const key = newFileKey("originals", "png");
    await store.write(key, Buffer.from("bytes"));
    await store.remove(key);
    await store.remove(key); // already gone: fine
    expect(await purgeDeletedFiles(store.root)).toBe(0);
    expect(fs.existsSync(store.deletedPathOf(key))).toBe(true);
    expect(
      await purgeDeletedFiles(store.root, Date.now() + DELETED_FILES_KEPT_MS + 1000),
    ).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(store.deletedPathOf(key))).toBe(false);
  });

  it("refuses to overwrite a data directory that has a database, and a non-empty backup folder", async () => {
    const backupDir = path.join(temp(), "b");
    await backupDataDir(getConfig().dataDir, backupDir);
    await expect(backupDataDir(getConfig().dataDir, backupDir)).rejects.toThrow(/not empty/);
    await expect(restoreDataDir(backupDir, getConfig().dataDir)).rejects.toThrow(
      /already holds a database/,
    );
    await expect(restoreDataDir(temp(), temp())).rejects.toThrow(/not a backup/);
  });
});
