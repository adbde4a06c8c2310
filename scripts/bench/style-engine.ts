import path from "node:path";
import url from "node:url";
import v8 from "node:v8";
import vm from "node:vm";
import sharp from "sharp";
import { STYLE_IDS, type StyleId } from "~/lib/styles";
import { createLocalEngine, LOCAL_ENGINE_VERSION } from "~/engines/styling/local-engine.server";
import { median, pairedMedianMs, row, type BenchRow } from "./measure";

/**
 * The local style engine per style on a 1024 px portrait, warm (the models
 * loaded by warm-up calls), against its limits: at most 1.5 s of CPU time per
 * image (all threads of the process: libvips, the model worker; so the figure
 * is what one core spends, however many the machine has) and at most 300 MB
 * more resident memory with the models loaded than before they were. Each
 * style's wall-clock time is shown against a bare sharp decode + resize +
 * JPEG encode of the same image, measured in turns with it, and next to the
 * previous engine's figures (v2, plain filters with no models, measured on
 * this bench before it was replaced).
 */
const here = path.dirname(url.fileURLToPath(import.meta.url));
export const PORTRAIT = path.resolve(here, "../../tests/fixtures/portrait.png");

/** The 512 px fixture portrait enlarged to 1024 px and stored as a JPEG, like an uploaded original. */
export const portrait1024 = () =>
  sharp(PORTRAIT).resize(1024, 1024).jpeg({ quality: 92 }).toBuffer();

/** Engine v2's medians on this bench (1024 px portrait, ms, 2026-11-25, 2 cores, sharp concurrency 1; bare sharp 12.7 ms). */
export const PREVIOUS_ENGINE_MS: Record<StyleId, number> = {
  professional: 36.2,
  cartoon: 32.4,
  anime: 33.5,
  fantasy: 35.4,
};

export const CPU_LIMIT_MS = 1500;
export const MEMORY_LIMIT_MB = 300;

/** A full garbage collection (exposed at run time, so the bench needs no node flags). */
function collectGarbage(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}

/** Resident memory after a full collection and a moment for native memory to be let go. */
async function settledRss(): Promise<number> {
  collectGarbage();
  await new Promise((resolve) => setTimeout(resolve, 200));
  collectGarbage();
  return process.memoryUsage().rss;
}

/** Median CPU milliseconds (user + system, every thread of the process) of `work`. */
async function medianCpuMs(work: () => Promise<unknown>, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    await work();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  return median(times);
}

export async function benchStyleEngine(runs = 15): Promise<BenchRow[]> {
  const input = await portrait1024();
  const bare = () =>
    sharp(input).resize(1024, 1024, { fit: "inside" }).jpeg({ quality: 90 }).toBuffer();
  const engine = createLocalEngine();
  for (let i = 0; i < 3; i++) await bare();
  const idle = await settledRss();
  const rows: BenchRow[] = [];
  let peak = idle;
  const first = performance.now();
  await engine.stylize(input, "cartoon");
  const firstMs = performance.now() - first;
  for (const style of STYLE_IDS) {
    const work = async () => {
      await engine.stylize(input, style);
      peak = Math.max(peak, process.memoryUsage().rss);
    };
    const { value, baseline } = await pairedMedianMs(work, bare, runs);
    const cpu = await medianCpuMs(work, Math.max(3, Math.round(runs / 3)));
    rows.push(
      row({
        name: `local engine v${LOCAL_ENGINE_VERSION}: ${style}, wall`,
        value,
        baseline,
        unit: "ms",
        limit: null,
        limitOf: "ratio",
        against: "bare sharp decode+resize+encode",
      }),
      row({
        name: `local engine v${LOCAL_ENGINE_VERSION}: ${style}, CPU (one core)`,
        value: cpu,
        baseline: CPU_LIMIT_MS,
        unit: "ms",
        limit: CPU_LIMIT_MS,
        limitOf: "value",
        against: "the limit per 1024 px image",
      }),
      row({
        name: `local engine v2 (before models): ${style}`,
        value: PREVIOUS_ENGINE_MS[style],
        baseline: 12.7,
        unit: "ms",
        limit: null,
        limitOf: "ratio",
        against: "bare sharp, recorded in the same run as v2",
      }),
    );
  }
  const loaded = await settledRss();
  rows.push(
    row({
      name: `local engine v${LOCAL_ENGINE_VERSION}: first call (loads the models)`,
      value: firstMs,
      baseline: CPU_LIMIT_MS,
      unit: "ms",
      limit: null,
      limitOf: "value",
      against: "shown only",
    }),
    row({
      name: `local engine v${LOCAL_ENGINE_VERSION}: memory with the models loaded, above idle`,
      value: (loaded - idle) / 1024 ** 2,
      baseline: MEMORY_LIMIT_MB,
      unit: "MB",
      limit: MEMORY_LIMIT_MB,
      limitOf: "value",
      against: "resident memory before the first call, both after a full GC (the limit)",
    }),
    row({
      name: `local engine v${LOCAL_ENGINE_VERSION}: peak memory while styling, above idle`,
      value: (peak - idle) / 1024 ** 2,
      baseline: MEMORY_LIMIT_MB,
      unit: "MB",
      limit: null,
      limitOf: "value",
      against: "shown only (transient buffers before collection)",
    }),
  );
  return rows;
}

/**
 * The local engine on a 12 MP phone selfie (4032×3024, the fixture portrait
 * enlarged and stored as a JPEG), warm: each style's wall-clock and CPU time
 * and its output's size, shown only (the engine renders up to LOCAL_MAX_EDGE,
 * so a large upload costs more than the 1024 px figures above; the limit it
 * is judged by is the stylize job's timeout).
 */
export async function benchTwelveMegapixels(runs = 3): Promise<BenchRow[]> {
  const input = await sharp(PORTRAIT)
    .resize(3024, 4032, { fit: "fill" })
    .jpeg({ quality: 92 })
    .toBuffer();
  const engine = createLocalEngine();
  await engine.stylize(input, "cartoon");
  const rows: BenchRow[] = [];
  for (const style of STYLE_IDS) {
    const walls: number[] = [];
    let size = "";
    const cpu = await medianCpuMs(async () => {
      const start = performance.now();
      const result = await engine.stylize(input, style);
      walls.push(performance.now() - start);
      size = `${result.width}×${result.height}, ${(((result.native?.width ?? 0) * (result.native?.height ?? 0)) / 1e6).toFixed(1)} MP made`;
    }, runs);
    rows.push(
      row({
        name: `local engine v${LOCAL_ENGINE_VERSION}: ${style} on 12 MP, wall (${size})`,
        value: median(walls),
        baseline: CPU_LIMIT_MS,
        unit: "ms",
        limit: null,
        limitOf: "value",
        against: "shown only",
      }),
      row({
        name: `local engine v${LOCAL_ENGINE_VERSION}: ${style} on 12 MP, CPU (one core)`,
        value: cpu,
        baseline: CPU_LIMIT_MS,
        unit: "ms",
        limit: null,
        limitOf: "value",
        against: "shown only (the 1024 px limit, for scale)",
      }),
    );
  }
  return rows;
}
