import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * docs/decisions/README.md lists every decision record with its title and
 * Status line, and a record revised or superseded by a later one names it
 * there, while the later one names it back.
 */
const DECISIONS = path.resolve(__dirname, "../../docs/decisions");
const INDEX = path.join(DECISIONS, "README.md");

interface DecisionRecord {
  number: string;
  file: string;
  title: string;
  status: string;
}

/** A list item's text with its wrapped lines joined by single spaces. */
const joined = (lines: string[]) => lines.map((line) => line.trim()).join(" ");

function readRecord(file: string, text: string): DecisionRecord {
  const lines = text.split("\n");
  const heading = /^# (\d{3}): (.+)$/.exec(lines[0]);
  if (!heading) throw new Error(`${file}: the first line is not "# NNN: Title"`);
  if (!file.startsWith(`${heading[1]}-`))
    throw new Error(`${file}: its heading says ${heading[1]}`);
  const start = lines.findIndex((line) => line.startsWith("- Status: "));
  if (start < 0) throw new Error(`${file}: no "- Status: " line`);
  let end = start + 1;
  while (end < lines.length && lines[end].startsWith("  ")) end += 1;
  const status = joined(lines.slice(start, end)).slice("- Status: ".length);
  return { number: heading[1], file, title: heading[2], status };
}

/** The index's entries: `- [NNN](file): Title. Status: status`, one list item each. */
function readIndex(text: string): string[] {
  const items: string[][] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("- [")) items.push([line]);
    else if (line.startsWith("  ") && items.length > 0) items[items.length - 1].push(line);
    else if (line.trim() !== "" || items.length > 0) items.push([]);
  }
  return items.map(joined).filter((item) => /^- \[\d{3}\]\(/.test(item));
}

const indexEntry = (record: DecisionRecord) =>
  `- [${record.number}](${record.file}): ${record.title}. Status: ${record.status}`;

/** The numbers a status names after `revised by` or `superseded by`, outside the parentheses that say what changed. */
function laterRecordsNamed(status: string): string[] {
  const named: string[] = [];
  for (const match of status.matchAll(/(?:revised|superseded) by /g)) {
    let depth = 0;
    const rest = status.slice(match.index + match[0].length);
    for (let i = 0; i < rest.length; i += 1) {
      const char = rest[i];
      if (char === "(") depth += 1;
      else if (char === ")") depth -= 1;
      if (depth < 0) break;
      if (depth === 0 && /^\d{3}\b/.test(rest.slice(i)) && !/\d/.test(rest[i - 1] ?? "")) {
        named.push(rest.slice(i, i + 3));
      }
    }
  }
  return named;
}

/** The numbers a status names in its `(revises …)` or `(supersedes …)`, up to `)` or `;`. */
function earlierRecordsNamed(status: string): string[] {
  const named: string[] = [];
  for (const match of status.matchAll(/\((?:revises|supersedes) ([^);]*)/g)) {
    named.push(...(match[1].match(/\b\d{3}\b/g) ?? []));
  }
  return named;
}

const recordFiles = () =>
  fs
    .readdirSync(DECISIONS)
    .filter((file) => /^\d{3}-.+\.md$/.test(file) && !file.startsWith("000-"))
    .sort();

const records = () =>
  recordFiles().map((file) =>
    readRecord(file, fs.readFileSync(path.join(DECISIONS, file), "utf8")),
  );

describe("the decision records' index", () => {
  it("lists every record once, with its title and Status line as the record has them", () => {
    const expected = records().map(indexEntry);
    expect(readIndex(fs.readFileSync(INDEX, "utf8"))).toEqual(expected);
  });

  it("holds each `revised by` and `superseded by` to a later record that names it back", () => {
    const byNumber = new Map(records().map((record) => [record.number, record]));
    const mismatches: string[] = [];
    for (const record of byNumber.values()) {
      for (const later of laterRecordsNamed(record.status)) {
        const laterRecord = byNumber.get(later);
        if (!laterRecord || later <= record.number) {
          mismatches.push(`${record.number} names ${later}, which is no later record`);
        } else if (!earlierRecordsNamed(laterRecord.status).includes(record.number)) {
          mismatches.push(`${record.number} is revised by ${later}, whose status does not name it`);
        }
      }
      for (const earlier of earlierRecordsNamed(record.status)) {
        const earlierRecord = byNumber.get(earlier);
        if (!earlierRecord || !laterRecordsNamed(earlierRecord.status).includes(record.number)) {
          mismatches.push(`${record.number} revises ${earlier}, whose status does not name it`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("reads statuses the way the records write them", () => {
    const status =
      "accepted (revises 006), revised by 048 (up to 4096 px; 2048 px for fal) and 066 (the looks)";
    expect(laterRecordsNamed(status)).toEqual(["048", "066"]);
    expect(earlierRecordsNamed(status)).toEqual(["006"]);
    expect(earlierRecordsNamed("accepted (revises 022; extends 007)")).toEqual(["022"]);
    expect(laterRecordsNamed("superseded by 078 (one line)")).toEqual(["078"]);
    expect(
      readIndex("# Index\n\n- [001](001-a.md): A. Status: accepted,\n  revised by 002 (b)\n"),
    ).toEqual(["- [001](001-a.md): A. Status: accepted, revised by 002 (b)"]);
  });
});
