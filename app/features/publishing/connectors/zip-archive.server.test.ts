import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { readZip, writeZip } from "~/features/publishing/connectors/zip-archive.server";

const entries = [
  { name: "metadata.json", data: Buffer.from('{"name":"x"}\n') },
  { name: "image.png", data: Buffer.alloc(5000, 9) },
  { name: "README.txt", data: Buffer.from("read me\n") },
];

describe("zip archives", () => {
  it("give the same bytes for the same entries and time, in the order given, stored", () => {
    const time = new Date("2026-11-22T10:00:00Z");
    const zip = writeZip(entries, time);
    expect(writeZip(entries, new Date(time)).equals(zip)).toBe(true);
    expect(readZip(zip)).toEqual(entries);
    // Stored: the data is in the archive as is.
    expect(zip.includes(entries[1].data)).toBe(true);
    // The DOS date and time of the first local header: 2026-11-22 10:00:00 (UTC).
    expect(zip.readUInt16LE(10)).toBe((10 << 11) | (0 << 5) | 0);
    expect(zip.readUInt16LE(12)).toBe(((2026 - 1980) << 9) | (11 << 5) | 22);
  });

  it("refuse unsafe, repeated and all-digit names", () => {
    for (const name of ["../evil", "/abs", "a//b", "a/./b", "späße.txt", ""]) {
      expect(() => writeZip([{ name, data: Buffer.alloc(1) }]), name).toThrow(
        /Unsafe zip entry name/,
      );
    }
    expect(() => writeZip([entries[0], entries[0]])).toThrow(/Duplicate/);
    expect(() => writeZip([{ name: "2026", data: Buffer.alloc(1) }])).toThrow(/non-digit/);
  });

  it("read only stored entries", () => {
    const compressed = Buffer.from(
      zipSync({ "a.txt": Buffer.from("hello hello hello") }, { level: 6 }),
    );
    expect(() => readZip(compressed)).toThrow(/compressed/);
    expect(() => readZip(Buffer.from("not a zip at all, just some text"))).toThrow();
  });
});
