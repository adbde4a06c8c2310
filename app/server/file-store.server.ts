import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { getConfig } from "./config.server";
import { newId } from "./ids.server";

/**
 * Files live on the data volume under DATA_DIR/files, named by generated keys
 * such as "styled/3kP9....png" (never by user input). Writes go to a temporary
 * name first and are renamed into place, so a crash never leaves half a file
 * under a real key.
 */
export type FileArea = "originals" | "styled" | "optimized" | "previews" | "listings" | "kits" | "samples" | "tmp";

const KEY_PATTERN = /^(originals|styled|optimized|previews|listings|kits|samples|tmp)\/[A-Za-z0-9_-]{8,64}\.(png|jpg|webp|json|zip|bin)$/;

export function newFileKey(area: FileArea, extension: "png" | "jpg" | "webp" | "json" | "zip" | "bin"): string {
  return `${area}/${newId()}.${extension}`;
}

export function isValidFileKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export class FileStore {
  constructor(public readonly root: string) {}

  /** The absolute path of a key; refuses anything that is not a key we made. */
  pathOf(key: string): string {
    if (!isValidFileKey(key)) throw new Error(`Not a file key: ${key}`);
    return path.join(this.root, key);
  }

  async write(key: string, data: Buffer | Uint8Array): Promise<void> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.${Date.now()}.partial`;
    await fsp.writeFile(temporary, data);
    await fsp.rename(temporary, target);
  }

  /** Moves a file already on the volume (e.g. a streamed upload) under a key. */
  async adopt(key: string, sourcePath: string): Promise<void> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(sourcePath, target);
  }

  read(key: string): Promise<Buffer> {
    return fsp.readFile(this.pathOf(key));
  }

  stream(key: string): fs.ReadStream {
    return fs.createReadStream(this.pathOf(key));
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fsp.access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }

  async size(key: string): Promise<number> {
    return (await fsp.stat(this.pathOf(key))).size;
  }

  /** Removes a file; a file already gone is not an error. */
  async remove(key: string | null | undefined): Promise<void> {
    if (!key) return;
    await fsp.rm(this.pathOf(key), { force: true });
  }

  /** A scratch path on the same volume (same filesystem, so adopt() is a rename). */
  async scratchPath(): Promise<string> {
    const dir = path.join(this.root, "tmp");
    await fsp.mkdir(dir, { recursive: true });
    return path.join(dir, `${newId()}.upload`);
  }
}

export function getFileStore(): FileStore {
  return new FileStore(getConfig().filesDir);
}
