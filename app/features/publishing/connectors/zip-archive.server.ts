import { unzipSync, zipSync } from "fflate";
import type { Zippable } from "fflate";

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

/**
 * The time to hand fflate, which writes the DOS date fields from a Date's local
 * time: a Date whose local fields are `date`'s UTC fields, within the years a
 * ZIP can hold.
 */
function zipTime(date: Date): Date {
  const year = Math.min(2099, Math.max(1980, date.getUTCFullYear()));
  return new Date(
    year,
    date.getUTCMonth(),
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
  );
}

export function writeZip(entries: ZipEntry[], modified = new Date()): Buffer {
  const files: Zippable = {};
  for (const entry of entries) {
    const segments = entry.name.split("/");
    if (
      !/^[A-Za-z0-9._/-]{1,200}$/.test(entry.name) ||
      segments.some((part) => part === "" || part === "." || part === "..")
    ) {
      throw new Error(`Unsafe zip entry name: ${entry.name}`);
    }
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
