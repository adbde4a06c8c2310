import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeFilesToOthers, LocalFileStore } from "~/infra/local-file-store.server";

/**
 * The stored files are faces, paid files and buyers' downloads: readable and
 * writable by the server's own user only, whatever the process's umask, as the
 * database and the exports are.
 */

let root: string;
let umask: number;
beforeEach(() => {
  // The usual umask, under which a file is made 0644 and a folder 0755 unless said otherwise.
  umask = process.umask(0o022);
  root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "file-modes-")), "files");
});
afterEach(() => {
  process.umask(umask);
});

/** Every folder (the root too) and file under `dir`, with its permission bits. */
function modesUnder(dir: string): { entry: string; mode: string }[] {
  const found = [{ entry: ".", mode: (fs.statSync(dir).mode & 0o777).toString(8) }];
  for (const entry of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const stat = fs.statSync(path.join(dir, entry));
    found.push({
      entry: `${entry}${stat.isDirectory() ? "/" : ""}`,
      mode: (stat.mode & 0o777).toString(8),
    });
  }
  return found;
}

describe("the local file store's permissions", () => {
  it("makes every file it stores 0600 and every folder 0700: written, moved in from a scratch file, and removed", async () => {
    const store = new LocalFileStore(root);
    await store.write("previews/preview-0001.jpg", Buffer.from("preview"));
    // A scratch file as sharp or a plain write leaves it: 0644 under this umask.
    const scratch = await store.scratchPath();
    await fsp.writeFile(scratch, "selfie");
    await store.putFile("originals/selfie-0001.png", scratch);
    await store.write("listings/paid-file-0001.png", Buffer.from("paid"));
    await store.remove("listings/paid-file-0001.png");

    const modes = modesUnder(root);
    expect(modes.map(({ entry }) => entry)).toEqual(
      expect.arrayContaining([
        "previews/preview-0001.jpg",
        "originals/selfie-0001.png",
        ".deleted/listings/paid-file-0001.png",
        "tmp/",
      ]),
    );
    expect(
      modes.filter(
        ({ entry, mode }) => mode !== (entry.endsWith("/") || entry === "." ? "700" : "600"),
      ),
    ).toEqual([]);
  });

  it("closes an existing files folder made before to others at start", () => {
    fs.mkdirSync(root, { recursive: true, mode: 0o755 });
    closeFilesToOthers(root);
    expect((fs.statSync(root).mode & 0o777).toString(8)).toBe("700");
  });
});
