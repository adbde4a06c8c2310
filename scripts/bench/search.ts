import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import type { RunningServer } from "../../tests/process/support/server-process";
import { row, type BenchRow } from "./measure";
import { seedCreators, seedListings } from "./seed-listings";
import { copyBenchData, startBenchServer } from "./server-bench";

/**
 * Marketplace search at 100,000 listings, on the real server (production
 * build): how long one search takes over HTTP, and what one client searching
 * ten times a second does to everyone else (/healthz). The server runs with
 * the per-address search throttle lifted (SEARCHES_PER_ADDRESS), so that every
 * search is answered by the index rather than refused: this measures the
 * index, the throttle is a second line.
 */

/** The kinds of search the bench mixes, each with its query for the i-th search (each text distinct: nothing is answered from a cache). */
const SEARCH_KINDS: { name: string; query: (i: number) => string }[] = [
  // Thousands of matches: the walk stops at the cap.
  {
    name: "common word",
    query: (i) =>
      `q=${["neon", "portrait", "selfie", "golden city", "studio"][i % 5]}&limit=${24 + (i % 7)}`,
  },
  // A few matches far apart.
  { name: "rare word", query: (i) => `q=aurora ${i % 100}` },
  { name: "nothing", query: (i) => `q=qzv${i}` },
  // The bounded scan of the newest listings.
  {
    name: "one or two characters",
    query: (i) => `q=${["n", "zz", "x", "ne"][i % 4]}&limit=${24 + (i % 7)}`,
  },
  { name: "style and word", query: (i) => `style=anime&q=golden ${i % 10}` },
];

/** The i-th search: the kinds in turn. */
function searchPath(i: number): string {
  return `/api/marketplace?${SEARCH_KINDS[i % SEARCH_KINDS.length].query(i)}`;
}

async function timedGet(server: RunningServer, pathname: string): Promise<number> {
  const start = performance.now();
  const response = await server.fetch(pathname);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${pathname} answered ${response.status}`);
  return performance.now() - start;
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];

export async function benchSearch(
  scratch: string,
  port: number,
  quick = false,
  /** A fresh PostgreSQL database to run the server on instead of SQLite (the same listings are copied in). */
  postgresUrl?: string,
): Promise<BenchRow[]> {
  const seedDir = path.join(scratch, "search");
  const dataDir = postgresUrl ? path.join(scratch, "search-postgres") : seedDir;
  const env: Record<string, string> = postgresUrl ? { DATABASE_URL: postgresUrl } : {};
  // Migrate once, then seed 100,000 listings while no server runs (the triggers index them).
  const database = path.join(seedDir, "selfie-studio.sqlite");
  if (!fs.existsSync(database)) {
    await (await startBenchServer({ dataDir: seedDir, port })).stop();
    seedListings(database, 0, 100_000, seedCreators(database, 500));
  }
  if (postgresUrl) {
    await (await startBenchServer({ dataDir, port, env })).stop();
    await copyBenchData(database, postgresUrl);
  }

  const server = await startBenchServer({
    dataDir,
    port,
    env: { ...env, SEARCHES_PER_ADDRESS: "1000000" },
  });
  try {
    const runs = quick ? 300 : 1000;
    for (let i = 0; i < 100; i++) await timedGet(server, searchPath(runs + i));
    // One search at a time, alternating with /healthz (the same HTTP round trip, no work).
    const searches: number[] = [];
    const healthz: number[] = [];
    const byKind: number[][] = SEARCH_KINDS.map(() => []);
    for (let i = 0; i < runs; i++) {
      const took = await timedGet(server, searchPath(i));
      searches.push(took);
      byKind[i % SEARCH_KINDS.length].push(took);
      healthz.push(await timedGet(server, "/healthz"));
    }
    searches.sort((a, b) => a - b);
    healthz.sort((a, b) => a - b);
    // Which kinds make the tail: printed beside the rows, for reading, not judged.
    for (const [k, times] of byKind.entries()) {
      times.sort((a, b) => a - b);
      console.log(
        `  ${postgresUrl ? "[PostgreSQL] " : ""}${SEARCH_KINDS[k].name.padEnd(22)} p50 ${percentile(times, 0.5).toFixed(2)} ms  p90 ${percentile(times, 0.9).toFixed(2)} ms  max ${times[times.length - 1].toFixed(2)} ms  (${times.length} searches)`,
      );
    }

    // /healthz under load (1 connection) alone, then while one client searches ten times a second.
    const seconds = quick ? 5 : 15;
    const alone = await autocannon({
      url: `${server.origin}/healthz`,
      connections: 1,
      duration: seconds,
    });
    let sent = 0;
    let refused = 0;
    const searcher = setInterval(() => {
      const pathname = searchPath(sent++);
      void server.fetch(pathname).then(
        async (response) => {
          await response.arrayBuffer();
          if (response.status !== 200) refused++;
        },
        () => refused++,
      );
    }, 100);
    const during = await autocannon({
      url: `${server.origin}/healthz`,
      connections: 1,
      duration: seconds,
    });
    clearInterval(searcher);
    if (refused > 0)
      throw new Error(`${refused} of ${sent} searches failed during the /healthz load`);
    if (during.non2xx > 0 || during.errors > 0)
      throw new Error("/healthz failed while searches ran");

    const label = "search @100k (mixed queries, one at a time)";
    return [
      row({
        name: `${label}: p50`,
        value: percentile(searches, 0.5),
        baseline: percentile(healthz, 0.5),
        unit: "ms",
        limit: null,
        limitOf: "value",
        against: "/healthz p50, same loop",
      }),
      row({
        name: `${label}: p99`,
        value: percentile(searches, 0.99),
        baseline: percentile(healthz, 0.99),
        unit: "ms",
        limit: 20,
        limitOf: "value",
        against: "/healthz p99, same loop; limit 20 ms",
      }),
      row({
        name: `/healthz p99 while one client searches 10/s (${sent} searches)`,
        value: during.latency.p99,
        baseline: alone.latency.p99,
        unit: "ms",
        limit: 50,
        limitOf: "value",
        against: "/healthz p99 without searches; limit 50 ms",
      }),
    ];
  } finally {
    await server.stop();
  }
}
