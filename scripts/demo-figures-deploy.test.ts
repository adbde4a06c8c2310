import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * DEMO_FIGURES (decision 087): the demo's start (`--seed`, what `npm start` and
 * the browser tests' server run) turns it on; what a live store runs (the
 * Dockerfile, fly.toml) never passes --seed nor sets it, so it stays off there.
 */

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

describe("DEMO_FIGURES on the demo only", () => {
  it("is turned on by scripts/start.mjs --seed, unless set", () => {
    const start = read("scripts/start.mjs");
    expect(start).toContain('const seedDemo = process.argv.includes("--seed");');
    expect(start).toContain(
      'if (seedDemo && !process.env.DEMO_FIGURES) process.env.DEMO_FIGURES = "on";',
    );
    expect(JSON.parse(read("package.json")).scripts.start).toContain("scripts/start.mjs --seed");
    expect(read("playwright.config.ts")).toContain("node scripts/start.mjs --seed");
  });

  it("is never set by the Dockerfile or fly.toml, and neither passes --seed", () => {
    for (const file of ["Dockerfile", "fly.toml"]) {
      const text = read(file);
      expect(text, file).not.toMatch(/DEMO_FIGURES/);
      expect(text, file).not.toMatch(/--seed/);
    }
  });
});
