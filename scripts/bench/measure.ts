/** Shared pieces of the benchmarks: timing, medians, the result table. */

export interface BenchRow {
  /** What was measured. */
  name: string;
  value: number;
  /** The figure it is compared with (a baseline measured in the same run, or a fixed limit). */
  baseline: number;
  unit: string;
  /** value / baseline. */
  ratio: number;
  /** The most the ratio may be, or, for fixed limits, the most the value may be (then limitOf = "value"); null: shown only. */
  limit: number | null;
  limitOf: "ratio" | "value";
  /** The limit is the least the figure may be (a throughput), not the most. */
  atLeast?: boolean;
  /** What the baseline is. */
  against: string;
  /**
   * The same figure from the physical limit measured in the same run (the
   * page's bytes from a bare node:http server), when the row has one: printed
   * as a second ratio.
   */
  bare?: number;
}

export function row(args: Omit<BenchRow, "ratio">): BenchRow {
  return { ...args, ratio: args.value / args.baseline };
}

export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Wall-clock milliseconds of one call. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/**
 * Median wall-clock milliseconds of `work` and of `baseline`, `runs` calls
 * each after `warmups` unmeasured ones, taken in turns (work, baseline, work,
 * ...) so that other load on the machine, which comes and goes, hits both alike.
 */
export async function pairedMedianMs(
  work: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  runs: number,
  warmups = 3,
): Promise<{ value: number; baseline: number }> {
  for (let i = 0; i < warmups; i++) {
    await work();
    await baseline();
  }
  const workTimes: number[] = [];
  const baselineTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    workTimes.push(await timed(work));
    baselineTimes.push(await timed(baseline));
  }
  return { value: median(workTimes), baseline: median(baselineTimes) };
}

export function passes(bench: BenchRow): boolean {
  if (bench.limit === null) return true;
  const figure = bench.limitOf === "ratio" ? bench.ratio : bench.value;
  return bench.atLeast ? figure >= bench.limit : figure <= bench.limit;
}

const fmt = (value: number) =>
  value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);

export function printTable(rows: BenchRow[]): void {
  const header = [
    "measure",
    "value",
    "baseline",
    "ratio",
    "bare",
    "vs bare",
    "limit",
    "",
    "baseline is",
  ];
  const cells = rows.map((bench) => [
    bench.name,
    `${fmt(bench.value)} ${bench.unit}`,
    `${fmt(bench.baseline)} ${bench.unit}`,
    `${bench.ratio.toFixed(2)}x`,
    bench.bare === undefined ? "-" : `${fmt(bench.bare)} ${bench.unit}`,
    bench.bare === undefined || bench.bare === 0
      ? "-"
      : `${(bench.value / bench.bare).toFixed(2)}x`,
    bench.limit === null
      ? "-"
      : bench.limitOf === "ratio"
        ? `${bench.atLeast ? "≥" : "≤"} ${bench.limit}x`
        : `${bench.atLeast ? "≥" : "≤"} ${fmt(bench.limit)} ${bench.unit}`,
    bench.limit === null ? "" : passes(bench) ? "ok" : bench.atLeast ? "UNDER" : "OVER",
    bench.against,
  ]);
  const widths = header.map((title, i) =>
    Math.max(title.length, ...cells.map((line) => line[i].length)),
  );
  const line = (values: string[]) =>
    values
      .map((value, i) =>
        i === 0 || i === values.length - 1 ? value.padEnd(widths[i]) : value.padStart(widths[i]),
      )
      .join("  ");
  console.log(line(header));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const values of cells) console.log(line(values));
}

/** Prints the table, then whether every figure is within its limit or which are not. */
export function printTableAndVerdict(rows: BenchRow[]): void {
  printTable(rows);
  const over = rows.filter((bench) => !passes(bench));
  console.log(
    over.length === 0
      ? "\nEvery figure is within its limit."
      : `\nOver the limit: ${over.map((bench) => bench.name).join("; ")}`,
  );
}
