import { unzipSync, zipSync } from "fflate";
import type { Zippable } from "fflate";
import { assertSafeEntryName, zipTime } from "~/infra/zip-entry-rules.server";

/**
 * Writes ZIP files with fflate (and reads them back, for checking what we
 * wrote): entries are stored without compression, which suits
 * already-compressed images, in the order given, stamped with one modification
 * time so the same entries and time give the same bytes. Names are ASCII paths
 * we choose, never user input. The whole archive is built in memory, which the
 * kits (one image and two small text files) keep small.
 */

export interface ZipEntry {
  name: string;
  data: Buffer;
}

export function writeZip(entries: ZipEntry[], modified = new Date()): Buffer {
  const files: Zippable = {};
  for (const entry of entries) {
    assertSafeEntryName(entry.name);
    // fflate takes the entries as an object: a repeated name would replace an entry, and a name
    // that is an integer would be moved to the front.
    if (Object.hasOwn(files, entry.name))
      throw new Error(`Duplicate zip entry name: ${entry.name}`);
    if (/^\d+$/.test(entry.name))
      throw new Error(`Zip entry names need a non-digit: ${entry.name}`);
    if (entry.data.length >= 0xffffffff) throw new Error("Entry too large for a zip without zip64");
    files[entry.name] = entry.data;
  }
  const zip = zipSync(files, { level: 0, mtime: zipTime(modified) });
  return Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
}

/** Reads a zip whose entries are all stored (uncompressed), in the order of its central directory. */
export function readZip(zip: Buffer): ZipEntry[] {
  const files = unzipSync(zip, {
    filter: (file) => {
      if (file.compression !== 0) throw new Error(`Entry ${file.name} is compressed`);
      return true;
    },
  });
  return Object.entries(files).map(([name, data]) => ({ name, data: Buffer.from(data) }));
}
