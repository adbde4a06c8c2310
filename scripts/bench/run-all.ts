/**
 * npm run bench (after npm run build): every benchmark in one run,
 * each figure next to what it is compared with and its limit, as a ratio.
 * Measures and prints; asserts nothing. Figures go in docs/performance.md.
 *   npx tsx scripts/bench/run-all.ts [--quick] [--port=4150] [styles|optimize|marketplace|search|views|erase|c2pa|media|memory|bundle ...]
 *   (--quick: fewer runs, shorter loads; --port: the first of the three ports the
 *   servers use, 4150-4152 by default, and the object store the first + 10; names: only those parts)
 * The marketplace part also runs in-process on SQLite and, when a PostgreSQL
 * server answers at BENCH_DATABASE_URL (else TEST_DATABASE_URL), on a fresh
 * database there with the same data, and prints the two side by side.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import url from "node:url";
import sharp from "sharp";
import { benchClientBundles } from "./client-bundle";
import {
  marketplaceEngineRows,
  measureMarketplaceEngines,
  printMarketplaceComparison,
  type MarketplaceComparison,
} from "./marketplace";
import { printTableAndVerdict, row, type BenchRow } from "./measure";
import { LOCAL_POSTGRES_URL, probePostgres, withoutPassword } from "../postgres-probe.mjs";
import { testPostgresDatabase } from "../../tests/setup/test-postgres";
import { benchSearch } from "./search";
import { benchMarketplace, benchOptimize, benchUploadMemory } from "./server-bench";
import { benchStyleEngine } from "./style-engine";
import { benchSoakMemory } from "./soak-memory";
import { benchMediaStore } from "./media-store";
import { benchCachedViewWrites } from "./view-writes";
import { benchSecureDelete } from "./secure-delete";
import { benchContentCredentials } from "./content-credentials";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../..");
if (!fs.existsSync(path.join(root, "build", "index.js"))) {
  console.error("No server build: run `npm run build` first, then `npm run bench`.");
  process.exit(1);
}
const quick = process.argv.includes("--quick");
const only = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const PORT = Number(
  process.argv.find((arg) => arg.startsWith("--port="))?.slice("--port=".length) ?? 4150,
);
if (!Number.isInteger(PORT) || PORT < 1024 || PORT > 65533) {
  console.error("--port takes the first of three free TCP ports, such as --port=4150.");
  process.exit(1);
}
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-bench-"));

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
console.log(`Selfie Studio bench, ${new Date().toISOString()}`);
console.log(
  `${os.availableParallelism()} cores (${cpu}), ${(os.totalmem() / 1024 ** 3).toFixed(0)} GB RAM, ${os.type()} ${os.release()}, ` +
    `Node ${process.version}, libvips ${sharp.versions.vips}, load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
);

const rows: BenchRow[] = [];
const failed: string[] = [];
/** The marketplace on both engines (PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL answers). */
let engines: MarketplaceComparison | undefined;
/** One part of the bench; a part that throws is reported and the others still run. */
const step = async (part: string, title: string, work: () => Promise<BenchRow[]> | BenchRow[]) => {
  if (only.length > 0 && !only.includes(part)) return;
  const started = performance.now();
  process.stdout.write(`${title}... `);
  try {
    rows.push(...(await work()));
    console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    failed.push(part);
    console.log(
      `FAILED\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
};

/**
 * A part's rows again with the server on PostgreSQL (a fresh database on
 * BENCH_DATABASE_URL, TEST_DATABASE_URL or the local server), each beside the
 * same figure on SQLite. Without a reachable server: one line, no rows.
 */
async function onPostgres(
  sqliteRows: BenchRow[],
  bench: (databaseUrl: string) => Promise<BenchRow[]>,
): Promise<BenchRow[]> {
  const server =
    process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || LOCAL_POSTGRES_URL;
  const problem = await probePostgres(server);
  if (problem) {
    process.stdout.write(
      `skipped: no usable PostgreSQL at ${withoutPassword(server)} (${problem}) `,
    );
    return [];
  }
  const database = testPostgresDatabase(server)!;
  await database.create();
  try {
    const measured = await bench(database.url);
    const sqliteOf = new Map(sqliteRows.map((bench) => [bench.name, bench]));
    return measured.flatMap((bench) => {
      const sqlite = sqliteOf.get(bench.name);
      const own = { ...bench, name: `[PostgreSQL] ${bench.name}` };
      if (!sqlite || bench.name.startsWith("bare node:http")) return [own];
      return [
        own,
        row({
          name: `[PostgreSQL beside SQLite] ${bench.name}`,
          value: bench.value,
          baseline: sqlite.value,
          unit: bench.unit,
          limit: null,
          limitOf: "ratio",
          atLeast: bench.atLeast,
          against: "the same figure on SQLite",
        }),
      ];
    });
  } finally {
    await database.drop();
  }
}

try {
  await step("styles", "local style engine", () => benchStyleEngine(quick ? 5 : 21));
  await step("optimize", "optimize over HTTP", () => benchOptimize(scratch, PORT, quick ? 8 : 20));
  const onSqlite: BenchRow[] = [];
  await step("marketplace", "marketplace load at 1k and 100k listings", async () => {
    onSqlite.push(...(await benchMarketplace(scratch, PORT + 1, quick ? 2 : 5)));
    return onSqlite;
  });
  await step("marketplace", "the same on PostgreSQL", () =>
    onPostgres(onSqlite, (url) => benchMarketplace(scratch, PORT + 1, quick ? 2 : 5, url)),
  );
  const searchOnSqlite: BenchRow[] = [];
  await step("search", "search at 100k listings", async () => {
    searchOnSqlite.push(...(await benchSearch(scratch, PORT + 1, quick)));
    return searchOnSqlite;
  });
  await step("search", "the same on PostgreSQL", () =>
    onPostgres(searchOnSqlite, (url) => benchSearch(scratch, PORT + 1, quick, url)),
  );
  await step("marketplace", "marketplace in-process on SQLite and PostgreSQL", async () => {
    engines = await measureMarketplaceEngines(quick);
    return marketplaceEngineRows(engines);
  });
  await step("views", "database writes of page-cache hits", () =>
    benchCachedViewWrites(scratch, PORT + 1, quick ? 300 : 1_000),
  );
  await step("erase", "SQLite deletions with secure_delete", () =>
    benchSecureDelete(scratch, quick ? 1_000 : 5_000),
  );
  await step("c2pa", "Content Credentials signing per file", () =>
    benchContentCredentials(scratch, quick ? 5 : 15),
  );
  await step("media", "page views with images from the object store", () =>
    benchMediaStore(scratch, PORT, quick ? 2 : 5),
  );
  await step("memory", "memory during uploads", () => benchUploadMemory(scratch, PORT + 2));
  await step("memory", "memory under a soak of the public pages while two styles are made", () =>
    benchSoakMemory(scratch, PORT + 2, quick ? 30 : 150, quick ? 10_000 : 100_000),
  );
  await step("bundle", "client JavaScript", () => benchClientBundles(root));
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}

console.log(
  `\nload average at the end: ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")} (1, 5, 15 min)\n`,
);
if (engines) {
  printMarketplaceComparison(engines);
  console.log("");
}
printTableAndVerdict(rows);
if (failed.length > 0) {
  console.log(`\nNot measured (the part failed, see above): ${failed.join(", ")}`);
  process.exitCode = 1;
}
