// npm run bench:marketplace — how fast the marketplace answers at 1,000 and at
// 100,000 listings. Seeds a temporary DATA_DIR (deleted afterwards), then times
// GET /api/marketplace (the real route module, JSON included) and the
// /marketplace page's loader in-process, and prints both sizes side by side.
// Figures are medians and 95th percentiles in milliseconds on this machine.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-bench-"));
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "production";
for (const name of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "PUBLIC_URL"]) delete process.env[name];

const { getConfig } = await import("~/server/config.server");
const { getDb, migrateToLatest } = await import("~/server/db.server");
const { encodeCursor } = await import("~/services/marketplace-search.server");
const api = await import("~/routes/api.marketplace");
const page = await import("~/routes/marketplace");

const WARMUP = 30;
const RUNS = 300;
const STYLES = ["professional", "cartoon", "anime", "fantasy"];
const WORDS = ["Sunset", "Studio", "Neon", "Portrait", "Dream", "City", "Golden", "Forest", "Ocean", "Retro", "Bold", "Calm"];

interface Scenario {
  name: string;
  run: () => Promise<Response>;
}

function seed(file: string, from: number, to: number, creators: string[]) {
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  const insert = sqlite.prepare(`insert into listings (id, user_id, stylized_image_id, style, title, description, price_cents, tags,
    licensing_enabled, nft_enabled, file_key, file_mime_type, source_file_key, width, height, preview_key, view_count, status, created_at, updated_at)
    values (?, ?, null, ?, ?, ?, ?, ?, 1, 0, ?, 'image/jpeg', ?, 1024, 1024, ?, 0, ?, ?, ?)`);
  const start = Date.parse("2026-01-01T00:00:00Z");
  sqlite.transaction(() => {
    for (let i = from; i < to; i++) {
      const id = crypto.randomBytes(16).toString("base64url");
      const style = STYLES[i % STYLES.length];
      // "Aurora" is rare (1 in 1000): the search has to look far for it.
      const title = i % 1000 === 7 ? `Aurora ${i}` : `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${i}`;
      const stamp = new Date(start + i * 60_000).toISOString();
      insert.run(
        id,
        creators[i % creators.length],
        style,
        title,
        `An AI-stylized ${style} selfie.`,
        2500 + (i % 50) * 100,
        JSON.stringify([style, "portrait"]),
        `listings/${id}.jpg`,
        `styled/${id}.jpg`,
        `previews/${id}.jpg`,
        i % 20 === 0 ? "withdrawn" : "active",
        stamp,
        stamp,
      );
    }
  })();
  sqlite.pragma("optimize");
  sqlite.close();
}

async function seedCreators(count: number): Promise<string[]> {
  const db = getDb();
  const now = new Date().toISOString();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `creator-${i}`;
    ids.push(id);
    await db
      .insertInto("users")
      .values({
        id,
        email: `creator${i}@bench.example`,
        first_name: `Creator${i}`,
        last_name: "Bench",
        password_hash: "x",
        profile_image_url: null,
        banned: i % 50 === 0 ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return ids;
}

async function middleCursor(): Promise<string> {
  const db = getDb();
  const total = await db.selectFrom("listings").select(db.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
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

function call(module: { loader: (args: never) => unknown }, url: string, headers: Record<string, string> = {}) {
  return async () => {
    const request = new Request(new URL(url, "http://localhost:3000"), { headers });
    const result = (await (module.loader as (args: unknown) => Promise<unknown>)({ request, params: {}, context: { clientIp: "bench" } })) as Response;
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
    { name: "page loader /marketplace", run: call(page, "/marketplace", { Referer: "http://localhost:3000/marketplace" }) },
    { name: "page loader, counting views", run: call(page, "/marketplace") },
    { name: "page loader style+search", run: call(page, "/marketplace?style=anime&q=golden", { Referer: "http://localhost:3000/marketplace?style=anime&q=golden" }) },
  ];
}

async function measure(list: Scenario[]): Promise<Map<string, { p50: number; p95: number }>> {
  const results = new Map<string, { p50: number; p95: number }>();
  for (const scenario of list) {
    for (let i = 0; i < WARMUP; i++) await scenario.run();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = process.hrtime.bigint();
      await scenario.run();
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    results.set(scenario.name, { p50: times[Math.floor(RUNS * 0.5)], p95: times[Math.floor(RUNS * 0.95)] });
  }
  return results;
}

try {
  const db = getDb();
  await migrateToLatest(db);
  const creators = await seedCreators(500);
  const file = getConfig().databaseFile;

  seed(file, 0, 1_000, creators);
  const small = await measure(await scenarios());
  seed(file, 1_000, 100_000, creators);
  const large = await measure(await scenarios());

  const pad = (text: string, width: number) => text.padEnd(width);
  const fmt = (value: number) => value.toFixed(2).padStart(7);
  console.log(`\nMarketplace bench (${RUNS} runs each after ${WARMUP} warm-up; ms; in-process, no HTTP socket)\n`);
  console.log(`${pad("scenario", 30)} ${pad("1k p50", 8)} ${pad("1k p95", 8)} ${pad("100k p50", 9)} ${pad("100k p95", 9)}`);
  for (const [name, one] of small) {
    const hundred = large.get(name)!;
    console.log(`${pad(name, 30)} ${fmt(one.p50)}  ${fmt(one.p95)}  ${fmt(hundred.p50)}   ${fmt(hundred.p95)}`);
  }
  console.log("\n1k = 1,000 listings; 100k = 100,000 listings (5% withdrawn, 2% of creators banned).");
} finally {
  await getDb().destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
