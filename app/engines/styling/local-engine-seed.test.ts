import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createLocalEngine } from "~/engines/styling/local-engine.server";

const portrait = fs.readFileSync(
  path.resolve(
    path.dirname(url.fileURLToPath(import.meta.url)),
    "../../../tests/fixtures/portrait.png",
  ),
);
const engine = createLocalEngine();

/** The mean of each channel: enough to tell two runs apart. */
async function means(bytes: Buffer): Promise<number[]> {
  const stats = await sharp(bytes).stats();
  return stats.channels.slice(0, 3).map((channel) => channel.mean);
}

describe("local style engine: seeds", () => {
  it("varies its output with the seed, the same seed giving the same bytes, and names the seed in the file", async () => {
    const first = await engine.stylize(portrait, "cartoon", { seed: 11 });
    const again = await engine.stylize(portrait, "cartoon", { seed: 11 });
    const other = await engine.stylize(portrait, "cartoon", { seed: 15 });
    expect(again.data.equals(first.data)).toBe(true);
    expect(other.data.equals(first.data)).toBe(false);
    const [a, b] = [await means(first.data), await means(other.data)];
    // A small variation: visible in the numbers, not a different look.
    const difference = Math.max(...a.map((value, i) => Math.abs(value - b[i]!)));
    expect(difference).toBeGreaterThan(0.5);
    expect(difference).toBeLessThan(15);
    expect(first.data.includes(Buffer.from("seed 11"))).toBe(true);
  }, 60_000);
});
