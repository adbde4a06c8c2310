import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * docs/architecture.md says where things are, not how many there are: a
 * hand-written count of files, modules, routes or folders ("eleven files",
 * "about fifteen files") is wrong the day someone adds one. Figures given in
 * digits without "about" (a dated measurement of a flow) are left to whoever
 * measured them.
 */
const ARCHITECTURE = fs.readFileSync(path.resolve(__dirname, "../../docs/architecture.md"), "utf8");

const NUMBER =
  "two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|a hundred|dozens?|several|a few";
const COUNTED =
  "files?|modules?|routes?|route files|folders|flows|features|procedures|endpoints|tables";
const COUNT = new RegExp(
  `\\b(?:(?:about |some |roughly |nearly |over )?(?:${NUMBER})|(?:about|some|roughly|nearly|over) \\d[\\d,]*)\\s+(?:${COUNTED})\\b`,
  "gi",
);

const countsIn = (text: string) => [...text.matchAll(COUNT)].map((match) => match[0]);

/** The paths the page names in backticks, from the repository's root (no placeholders). */
const PATH = /`((?:app|db|tests|scripts|public|docs)\/[^`\s<>*{}]+)`/g;
const ROOT = path.resolve(__dirname, "../..");
const missingPaths = (text: string) =>
  [...new Set([...text.matchAll(PATH)].map((match) => match[1].replace(/[.,:]$/, "")))].filter(
    (named) => !fs.existsSync(path.join(ROOT, named)),
  );

describe("docs/architecture.md", () => {
  it("names only paths that exist (a moved file is renamed in the page too)", () => {
    expect(missingPaths(ARCHITECTURE)).toEqual([]);
  });

  it("finds a path that does not exist", () => {
    expect(missingPaths("`app/features/market/lends.server.ts` and `app/root.tsx`")).toEqual([
      "app/features/market/lends.server.ts",
    ]);
  });

  it("names no count of files, modules, routes or folders", () => {
    expect(countsIn(ARCHITECTURE)).toEqual([]);
  });

  it("finds the counts the page used to carry", () => {
    expect(
      countsIn(
        "Eleven files, in routes. About fifteen files in market. Seven files in routes. Four flows, file by file; about 38 modules.",
      ),
    ).toEqual([
      "Eleven files",
      "About fifteen files",
      "Seven files",
      "Four flows",
      "about 38 modules",
    ]);
    expect(countsIn("one file per sub-area; a small feature has one file")).toEqual([]);
    expect(countsIn("upload to styled image crossed 56 files (2026-11-29)")).toEqual([]);
  });
});
