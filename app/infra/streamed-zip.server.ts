import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import type { Readable } from "node:stream";
import { Zip, ZipPassThrough } from "fflate";
import { OWNER_ONLY_FILE } from "~/infra/owner-only-files.server";
import { assertSafeEntryName, zipTime } from "~/infra/zip-entry-rules.server";

/**
 * Writes a ZIP file entry by entry with fflate's streaming `Zip`, straight to
 * a file: each entry's bytes are read in chunks from its stream and written as
 * they come (waiting whenever the file's write buffer is full), so an archive
 * of many large images never sits whole in memory. Entries are stored as they
 * are (`ZipPassThrough`, no recompression): images are already compressed,
 * and each entry holds exactly the bytes it was given.
 */

export interface StreamedZipEntry {
  /** The path inside the archive: ASCII letters, digits, `._-` and `/` between non-empty segments. */
  name: string;
  /** The entry's bytes: a small buffer (a JSON document) or a stream opened when the entry is written. */
  source: Buffer | (() => Readable);
}

export interface WrittenZipEntry {
  name: string;
  bytes: number;
  /** SHA-256 (hex) of the entry's bytes as written. */
  sha256: string;
}

/** Waits for `event` on the file, or for its error (the caller's check then throws it); leaves no listener behind. */
function settled(out: fs.WriteStream, event: "drain" | "finish"): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off(event, done);
      out.off("error", done);
      resolve();
    };
    out.on(event, done);
    out.on("error", done);
  });
}

/**
 * Writes `entries` (an iterable or async iterable, consumed one entry at a
 * time) as a ZIP file at `target`, owner-only; answers each entry's size and
 * SHA-256. On any failure the half-written file is removed and the error
 * thrown. A file may be at most 4 GiB and the archive too (no zip64).
 */
export async function writeZipFile(
  target: string,
  entries: Iterable<StreamedZipEntry> | AsyncIterable<StreamedZipEntry>,
  {
    modified = new Date(),
    signal,
    onEntryWritten,
  }: {
    modified?: Date;
    signal?: AbortSignal;
    onEntryWritten?: (entry: WrittenZipEntry) => void;
  } = {},
): Promise<WrittenZipEntry[]> {
  const out = fs.createWriteStream(target, { flags: "wx", mode: OWNER_ONLY_FILE });
  let zipError: Error | null = null;
  let outError: Error | null = null;
  out.on("error", (error) => {
    outError = error;
  });
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      zipError = error;
      return;
    }
    out.write(chunk);
    if (final) out.end();
  });
  const check = () => {
    if (zipError) throw zipError;
    if (outError) throw outError;
    signal?.throwIfAborted();
  };
  /** Waits while the file's write buffer is full, so reading never runs ahead of writing. */
  const drained = async () => {
    check();
    if (out.writableNeedDrain) await settled(out, "drain");
    check();
  };
  const written: WrittenZipEntry[] = [];
  const names = new Set<string>();
  const time = zipTime(modified);
  try {
    for await (const entry of entries) {
      assertSafeEntryName(entry.name);
      if (names.has(entry.name)) throw new Error(`Duplicate zip entry name: ${entry.name}`);
      names.add(entry.name);
      const file = new ZipPassThrough(entry.name);
      file.mtime = time;
      zip.add(file);
      const hash = crypto.createHash("sha256");
      let bytes = 0;
      const push = async (chunk: Uint8Array) => {
        bytes += chunk.byteLength;
        if (bytes >= 0xffffffff)
          throw new Error(`Entry too large for a zip without zip64: ${entry.name}`);
        hash.update(chunk);
        file.push(chunk, false);
        await drained();
      };
      if (Buffer.isBuffer(entry.source)) {
        await push(entry.source);
      } else {
        const stream = entry.source();
        try {
          for await (const chunk of stream) await push(chunk as Buffer);
        } finally {
          stream.destroy();
        }
      }
      file.push(new Uint8Array(0), true);
      await drained();
      const done = { name: entry.name, bytes, sha256: hash.digest("hex") };
      written.push(done);
      onEntryWritten?.(done);
    }
    zip.end();
    check();
    if (!out.writableFinished) await settled(out, "finish");
    check();
    await fsp.chmod(target, OWNER_ONLY_FILE);
    return written;
  } catch (error) {
    zip.terminate();
    out.destroy();
    await fsp.rm(target, { force: true });
    throw error;
  }
}
