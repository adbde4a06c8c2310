// One engine's half of npm run bench:marketplace (scripts/bench/marketplace.ts
// runs it once per engine, each in a process of its own): how fast the
// marketplace answers at 1,000 and at 100,000 listings. Seeds a temporary
// DATA_DIR (deleted afterwards), or with BENCH_ENGINE_URL the empty PostgreSQL
// database it names, then times GET /api/marketplace (the real route module,
// JSON included) and the /marketplace page's loader in-process. Prints its
// figures (milliseconds: median, 95th and 99th percentiles) as one JSON line
// after FIGURES_PREFIX. The per-address search throttle is lifted (every
// search here comes from one address).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  seedCreators,
  seedCreatorsPostgres,
  seedListings,
  seedListingsPostgres,
} from "./seed-listings";

const FIGURES_PREFIX = "MARKETPLACE-FIGURES "; // read by marketplace.ts
const postgresUrl = process.env.BENCH_ENGINE_URL;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-bench-"));
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "production";
for (const name of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "PUBLIC_URL"])
  delete process.env[name];
// A production configuration needs these (config.server.ts); nothing here is paid or linked.
process.env.PUBLIC_URL = "http://localhost:3000";
process.env.ALLOW_TEST_CHECKOUT = "true";
process.env.SEARCHES_PER_ADDRESS = "1000000";
if (postgresUrl) process.env.DATABASE_URL = postgresUrl;
else delete process.env.DATABASE_URL;

const { getConfig } = await import("~/infra/config.server");
const { getDb, migrateToLatest } = await import("~/infra/db.server");
const { encodeCursor } = await import("~/features/market/catalog/marketplace-search.server");
const api = await import("~/routes/api+/$");
const page = await import("~/routes/_market+/marketplace");
const { featureTies } = await import("~/boot/studio-ties.server");
const ties = featureTies();

const WARMUP = 30;
const RUNS = Number(process.env.BENCH_RUNS ?? 300);

interface Scenario {
  name: string;
  run: () => Promise<Response>;
}

async function middleCursor(): Promise<string> {
  const db = getDb();
  const total = await db
    .selectFrom("listings")
    .select(db.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const row = await db
    .selectFrom("listings")
    .select(["created_at", "id"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .offset(Math.floor(Number(total.n) / 2))
    .limit(1)
    .executeTakeFirstOrThrow();
  return encodeCursor(row.created_at, row.id);
}

function call(
  module: { loader: (args: never) => unknown },
  url: string,
  headers: Record<string, string> = {},
) {
  return async () => {
    const request = new Request(new URL(url, "http://localhost:3000"), { headers });
    const result = (await (module.loader as (args: unknown) => Promise<unknown>)({
      request,
      params: {},
      context: { clientIp: "bench", ties },
    })) as Response;
    if (result.status !== 200) throw new Error(`${url} answered ${result.status}`);
    await result.text();
    return result;
  };
}

async function scenarios(): Promise<Scenario[]> {
  const cursor = encodeURIComponent(await middleCursor());
  return [
    { name: "API first page (24)", run: call(api, "/api/marketplace") },
    { name: "API style=fantasy", run: call(api, "/api/marketplace?style=fantasy") },
    { name: "API page 100 (limit 100)", run: call(api, "/api/marketplace?limit=100") },
    { name: "API deep cursor (middle)", run: call(api, `/api/marketplace?cursor=${cursor}`) },
    { name: "API search q=neon", run: call(api, "/api/marketplace?q=neon") },
    { name: "API search q=aurora (rare)", run: call(api, "/api/marketplace?q=aurora") },
    { name: "API search q=qzv (nothing)", run: call(api, "/api/marketplace?q=qzv") },
    { name: "API search q=ne (2 chars)", run: call(api, "/api/marketplace?q=ne") },
    {
      name: "page loader /marketplace",
      run: call(page, "/marketplace", { Referer: "http://localhost:3000/marketplace" }),
    },
    { name: "page loader, counting views", run: call(page, "/marketplace") },
    {
      name: "page loader style+search",
      run: call(page, "/marketplace?style=anime&q=golden", {
        Referer: "http://localhost:3000/marketplace?style=anime&q=golden",
      }),
    },
  ];
}

export interface Figures {
  p50: number;
  p95: number;
  p99: number;
}

async function measure(list: Scenario[]): Promise<Map<string, Figures>> {
  const results = new Map<string, Figures>();
  for (const scenario of list) {
    for (let i = 0; i < WARMUP; i++) await scenario.run();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = process.hrtime.bigint();
      await scenario.run();
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    results.set(scenario.name, {
      p50: times[Math.floor(RUNS * 0.5)],
      p95: times[Math.floor(RUNS * 0.95)],
      p99: times[Math.floor(RUNS * 0.99)],
    });
  }
  return results;
}

try {
  const db = getDb();
  await migrateToLatest(db);
  const file = getConfig().databaseFile;
  const creators = postgresUrl
    ? await seedCreatorsPostgres(postgresUrl, 500)
    : seedCreators(file, 500);
  const seed = (from: number, to: number) =>
    postgresUrl
      ? seedListingsPostgres(postgresUrl, from, to, creators)
      : seedListings(file, from, to, creators);

  await seed(0, 1_000);
  const small = await measure(await scenarios());
  const seedStart = performance.now();
  await seed(1_000, 100_000);
  const seedSeconds = (performance.now() - seedStart) / 1000;
  const large = await measure(await scenarios());
  console.log(
    FIGURES_PREFIX +
      JSON.stringify({
        runs: RUNS,
        warmup: WARMUP,
        seedSeconds,
        small: Object.fromEntries(small),
        large: Object.fromEntries(large),
      }),
  );
} finally {
  await getDb().destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
