// npm run bench:marketplace — how fast the marketplace answers at 1,000 and at
// 100,000 listings, on SQLite and, when a PostgreSQL server is reachable
// (BENCH_DATABASE_URL, else TEST_DATABASE_URL), on a fresh PostgreSQL database
// seeded with the same data (created for the run, dropped afterwards). Each
// engine runs in a process of its own (marketplace-engine.ts); the rows are
// printed side by side with PostgreSQL's figure over SQLite's. Figures are
// medians, 95th and 99th percentiles in milliseconds on this machine,
// in-process (no HTTP socket); searches at 100k are held to a p99 of 20 ms.
// Measures and prints; asserts nothing.
//   npx tsx scripts/bench/marketplace.ts [--quick]
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import url from "node:url";
import pg from "pg";
import { row, type BenchRow } from "./measure";

const here = path.dirname(url.fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const FIGURES_PREFIX = "MARKETPLACE-FIGURES ";

/** The most a search may take at 100,000 listings (p99, ms). */
export const SEARCH_P99_LIMIT_MS = 20;

interface Figures {
  p50: number;
  p95: number;
  p99: number;
}
interface EngineFigures {
  runs: number;
  warmup: number;
  seedSeconds: number;
  small: Record<string, Figures>;
  large: Record<string, Figures>;
}

/** One engine's run, in a process of its own (the app's database is one per process). */
function runEngine(postgresUrl: string | undefined, runs: number): Promise<EngineFigures> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, BENCH_RUNS: String(runs) };
    if (postgresUrl) env.BENCH_ENGINE_URL = postgresUrl;
    else delete env.BENCH_ENGINE_URL;
    const child = spawn(
      path.join(root, "node_modules/.bin/tsx"),
      [path.join(here, "marketplace-engine.ts")],
      { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += String(chunk)));
    child.stderr.on("data", (chunk: Buffer) => (err += String(chunk)));
    child.once("error", reject);
    child.once("exit", (code) => {
      const line = out.split("\n").find((text) => text.startsWith(FIGURES_PREFIX));
      if (code !== 0 || !line)
        return reject(new Error(`marketplace-engine.ts exited ${code}:\n${out}\n${err}`));
      resolve(JSON.parse(line.slice(FIGURES_PREFIX.length)) as EngineFigures);
    });
  });
}

/** The PostgreSQL server to bench on, if one answers: BENCH_DATABASE_URL, else TEST_DATABASE_URL. */
export async function reachablePostgres(): Promise<string | undefined> {
  const server = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!server) return undefined;
  const client = new pg.Client({ connectionString: server, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return server;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function admin(server: string, statement: string) {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh database on the server for one run: its URL, and how to drop it. */
async function freshDatabase(server: string) {
  const name = `selfie_bench_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
  await admin(server, `create database "${name}"`);
  const target = new URL(server);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    drop: () => admin(server, `drop database if exists "${name}" with (force)`),
  };
}

export interface MarketplaceComparison {
  sqlite: EngineFigures;
  postgres: EngineFigures | null;
  /** Why PostgreSQL was not measured. */
  skipped?: string;
}

/** Both engines' figures (PostgreSQL's null when no server is reachable). */
export async function measureMarketplaceEngines(quick = false): Promise<MarketplaceComparison> {
  const runs = quick ? 100 : 300;
  const sqlite = await runEngine(undefined, runs);
  const server = await reachablePostgres();
  if (!server)
    return {
      sqlite,
      postgres: null,
      skipped:
        process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL
          ? "the PostgreSQL server in BENCH_DATABASE_URL/TEST_DATABASE_URL did not answer"
          : "neither BENCH_DATABASE_URL nor TEST_DATABASE_URL is set",
    };
  const database = await freshDatabase(server);
  try {
    return { sqlite, postgres: await runEngine(database.url, runs) };
  } finally {
    await database.drop();
  }
}

const pad = (text: string, width: number) => text.padEnd(width);
const fmt = (value: number | undefined, width = 8) =>
  (value === undefined ? "-" : value.toFixed(2)).padStart(width);
const ratio = (value: number | undefined, baseline: number) =>
  (value === undefined ? "-" : `${(value / baseline).toFixed(2)}x`).padStart(7);

/** The comparison as a table: SQLite's figures, PostgreSQL's beside them, and their ratio. */
export function printMarketplaceComparison(result: MarketplaceComparison): void {
  const { sqlite, postgres } = result;
  console.log(
    `\nMarketplace bench (${sqlite.runs} runs each after ${sqlite.warmup} warm-up; ms; in-process, no HTTP socket)\n`,
  );
  console.log(
    `${pad("scenario", 30)} ${pad("engine", 8)} ${"1k p50".padStart(8)} ${"1k p95".padStart(8)} ${"100k p50".padStart(8)} ${"100k p95".padStart(8)} ${"100k p99".padStart(8)}`,
  );
  for (const [name, one] of Object.entries(sqlite.small)) {
    const search = /search/.test(name);
    const verdict = (figures: Figures | undefined) =>
      search && figures
        ? `  (limit ${SEARCH_P99_LIMIT_MS} ms: ${figures.p99 <= SEARCH_P99_LIMIT_MS ? "ok" : "OVER"})`
        : "";
    const large = sqlite.large[name];
    console.log(
      `${pad(name, 30)} ${pad("sqlite", 8)} ${fmt(one.p50)} ${fmt(one.p95)} ${fmt(large.p50)} ${fmt(large.p95)} ${fmt(large.p99)}${verdict(large)}`,
    );
    if (!postgres) continue;
    const pgSmall = postgres.small[name];
    const pgLarge = postgres.large[name];
    console.log(
      `${pad("", 30)} ${pad("postgres", 8)} ${fmt(pgSmall?.p50)} ${fmt(pgSmall?.p95)} ${fmt(pgLarge?.p50)} ${fmt(pgLarge?.p95)} ${fmt(pgLarge?.p99)}${verdict(pgLarge)}`,
    );
    console.log(
      `${pad("", 30)} ${pad("pg/sqlite", 8)} ${ratio(pgSmall?.p50, one.p50).padStart(8)} ${ratio(pgSmall?.p95, one.p95).padStart(8)} ${ratio(pgLarge?.p50, large.p50).padStart(8)} ${ratio(pgLarge?.p95, large.p95).padStart(8)} ${ratio(pgLarge?.p99, large.p99).padStart(8)}`,
    );
  }
  console.log(
    "\n1k = 1,000 listings; 100k = 100,000 listings (5% withdrawn, 2% of creators banned).",
  );
  console.log(
    `Seeding 99,000 listings took ${sqlite.seedSeconds.toFixed(1)} s on SQLite` +
      (postgres ? `, ${postgres.seedSeconds.toFixed(1)} s on PostgreSQL.` : "."),
  );
  if (!postgres) console.log(`PostgreSQL: skipped (${result.skipped}).`);
}

/** Rows for npm run bench: each scenario at 100k on PostgreSQL against SQLite (the search p99 held to its limit). */
export function marketplaceEngineRows(result: MarketplaceComparison): BenchRow[] {
  if (!result.postgres) return [];
  const rows: BenchRow[] = [];
  for (const [name, sqlite] of Object.entries(result.sqlite.large)) {
    const postgres = result.postgres.large[name];
    if (!postgres) continue;
    const search = /search/.test(name);
    for (const figure of ["p50", "p99"] as const)
      rows.push(
        row({
          name: `PostgreSQL @100k in-process, ${name}: ${figure}`,
          value: postgres[figure],
          baseline: sqlite[figure],
          unit: "ms",
          limit: search && figure === "p99" ? SEARCH_P99_LIMIT_MS : null,
          limitOf: "value",
          against: `SQLite ${figure}, same data${search && figure === "p99" ? `; limit ${SEARCH_P99_LIMIT_MS} ms` : ""}`,
        }),
      );
  }
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === url.fileURLToPath(import.meta.url)) {
  printMarketplaceComparison(await measureMarketplaceEngines(process.argv.includes("--quick")));
}
