/**
 * npm run bench:styles  (or: npx tsx scripts/bench/styles.ts [runs])
 *
 * Prints, per style, the local engine's median time on a 1024 px portrait
 * next to a bare sharp decode + resize + encode of the same image, and the
 * ratio between the two: wall-clock time, and CPU time of this process
 * (libvips threads included), which other load on the machine disturbs less.
 * Measures only; asserts nothing.
 */
import os from "node:os";
import path from "node:path";
import url from "node:url";
import sharp from "sharp";
import { STYLE_IDS } from "~/lib/styles";
import { createLocalEngine } from "~/engines/styling/local-engine.server";

const runs = Math.max(3, Number(process.argv[2]) || 15);
const warmups = 3;

interface Timing {
  wall: number;
  cpu: number;
}

const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(work: () => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < warmups; i++) await work();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const startCpu = process.cpuUsage();
    const start = performance.now();
    await work();
    wall.push(performance.now() - start);
    const used = process.cpuUsage(startCpu);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall: middle(wall), cpu: middle(cpu) };
}

const here = path.dirname(url.fileURLToPath(import.meta.url));
const fixture = path.resolve(here, "../../tests/fixtures/portrait.png");
// The 512 px fixture portrait enlarged to 1024 px and stored as a JPEG, like an uploaded original.
const input = await sharp(fixture).resize(1024, 1024).jpeg({ quality: 92 }).toBuffer();
const bare = () =>
  sharp(input).resize(1024, 1024, { fit: "inside" }).jpeg({ quality: 90 }).toBuffer();
// What every style pays before any styling: decode to raw pixels in memory, then encode them.
const rawRoundTrip = async () => {
  const { data, info } = await sharp(input)
    .resize(1024, 1024, { fit: "inside" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .jpeg({ quality: 90 })
    .toBuffer();
};

const engine = createLocalEngine();
const [load] = os.loadavg();
console.log(
  `Local style engine on a 1024x1024 JPEG portrait; medians of ${runs} runs after ${warmups} warm-ups.`,
);
console.log(
  `Node ${process.version}, ${os.availableParallelism()} cores (load ${load.toFixed(1)}), libvips ${sharp.versions.vips}, sharp concurrency ${sharp.concurrency()}.`,
);
console.log("");
const header = ["", "wall ms", "bare", "ratio", "cpu ms", "bare", "ratio"];
const widths = [18, 9, 7, 8, 9, 7, 8];
const row = (cells: string[]) =>
  console.log(
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(""),
  );
row(header);

const cases: Array<[string, () => Promise<unknown>]> = [
  ...STYLE_IDS.map((style): [string, () => Promise<unknown>] => [
    style,
    () => engine.stylize(input, style),
  ]),
  ["(raw round trip)", rawRoundTrip],
];
for (const [name, work] of cases) {
  const styled = await measure(work);
  // The baseline is measured again next to each case, so drift and other load hit both alike.
  const reference = await measure(bare);
  row([
    name,
    styled.wall.toFixed(1),
    reference.wall.toFixed(1),
    `${(styled.wall / reference.wall).toFixed(2)}x`,
    styled.cpu.toFixed(1),
    reference.cpu.toFixed(1),
    `${(styled.cpu / reference.cpu).toFixed(2)}x`,
  ]);
}
console.log(
  `\n"bare": sharp decode + resize + JPEG q90 encode of the same image, in one pipeline.`,
);
console.log(
  `"(raw round trip)": decode to raw pixels, then encode them: the part of every style that is not styling.`,
);
