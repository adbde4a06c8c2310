import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README is the quick start: it opens with one command that installs,
 * builds, seeds and serves the app and one that runs every test, and stays
 * short; operations live in docs/configuration.md.
 */
const ROOT = path.resolve(__dirname, "../..");
const README = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
};

/** The shell code blocks of a markdown text, in order. */
function shellBlocks(text: string): string[] {
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1].trim());
}

/** The npm scripts a command line names (`npm start`, `npm test`, `npm run <name>`). */
function scriptsNamed(command: string): string[] {
  const names: string[] = [];
  for (const match of command.matchAll(/\bnpm (start|test|run ([\w:-]+))\b/g)) {
    names.push(match[2] ?? match[1]);
  }
  return names;
}

describe("README.md", () => {
  it("is at most 100 lines", () => {
    expect(README.trimEnd().split("\n").length).toBeLessThanOrEqual(100);
  });

  it("opens with the command that installs, builds, seeds and serves, then the one that runs every test", () => {
    const [serve, test] = shellBlocks(README);
    expect(serve).toBe("npm install && npm start");
    expect(test).toBe("npm install && npm test");
    const quickStart = README.slice(0, README.indexOf(test) + test.length);
    expect(quickStart.split("\n").length).toBeLessThanOrEqual(25);
    expect(PACKAGE.scripts.start).toMatch(/\bbuild\b/);
    expect(PACKAGE.scripts.start).toMatch(/--seed\b/);
  });

  it("names only npm scripts that package.json has", () => {
    const named = [...README.matchAll(/`([^`]*\bnpm (?:start|test|run [\w:-]+)[^`]*)`/g)]
      .map((match) => match[1])
      .concat(shellBlocks(README))
      .flatMap(scriptsNamed);
    expect(named).toContain("start");
    expect(named).toContain("test");
    const missing = named.filter((name) => !(name in PACKAGE.scripts));
    expect(missing).toEqual([]);
  });

  it("reads the scripts it names the way the README writes them", () => {
    expect(scriptsNamed("npm install && npm start")).toEqual(["start"]);
    expect(scriptsNamed("npm run user:reset-password -- a@b.c")).toEqual(["user:reset-password"]);
    expect(shellBlocks("x\n```sh\nnpm test\n```\n")).toEqual(["npm test"]);
  });
});
