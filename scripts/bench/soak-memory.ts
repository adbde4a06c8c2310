import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import SQLite from "better-sqlite3";
import { ROOT, type RunningServer } from "../../tests/process/support/server-process";
import { row, type BenchRow } from "./measure";
import { seedCreators, seedListings } from "./seed-listings";
import { residentKb, resetPeak, settledRss, signIn, startBenchServer } from "./server-bench";

/**
 * The memory one process needs (ROLE=all, the default single machine): a soak
 * of the public pages at 20 connections over many distinct URLs (every
 * listing's page a copy of its own in the visitors' cache), while the worker
 * in the same process makes two styles with the local engine. Prints the peak
 * resident memory against 800 MB (a 1 GB machine with margin), and what the
 * page cache and the JavaScript heap held at their highest, read from /metrics.
 */

/** The most one process may reach on fly.toml's 1 GB machine, leaving room for the kernel and sqlite's files. */
const PEAK_LIMIT_MB = 800;

/** A figure of the Prometheus text, or null when it is absent. */
function metric(text: string, name: string): number | null {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, "m").exec(text);
  return match ? Number(match[1]) : null;
}

/** Public pages to soak: many distinct listing pages and storefronts, and the shared ones. */
function soakPaths(file: string): string[] {
  const sqlite = new SQLite(file, { readonly: true });
  const listings = sqlite
    .prepare(
      `select l.id from listings l join users u on u.id = l.user_id
       where l.status = 'active' and u.banned = 0 order by l.created_at desc limit 5000`,
    )
    .all() as { id: string }[];
  const handles = sqlite
    .prepare("select handle from users where handle is not null and banned = 0")
    .all() as { handle: string }[];
  sqlite.close();
  return [
    ...listings.map((listing) => `/marketplace/${listing.id}`),
    ...handles.map((user) => `/creators/${user.handle}`),
    ...["professional", "cartoon", "anime", "fantasy"].map(
      (style) => `/marketplace?style=${style}`,
    ),
    "/",
    "/marketplace",
    "/training",
    "/api/marketplace",
  ];
}

function giveHandles(file: string, creators: string[]) {
  const sqlite = new SQLite(file);
  const update = sqlite.prepare("update users set handle = ? where id = ?");
  sqlite.transaction(() => creators.forEach((id, i) => update.run(`soak-creator-${i}`, id)))();
  sqlite.close();
}

/** Asks for two styles of a fresh upload at once; resolves when both are completed (or one failed). */
async function twoStyles(server: RunningServer, token: string): Promise<string> {
  const call = (pathname: string, init: RequestInit = {}) =>
    server.fetch(pathname, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${token}` },
    });
  const form = new FormData();
  const portrait = fs.readFileSync(path.join(ROOT, "tests/fixtures/portrait.png"));
  form.set("image", new Blob([new Uint8Array(portrait)], { type: "image/png" }), "portrait.png");
  const uploaded = await call("/api/token-images/upload", { method: "POST", body: form });
  if (uploaded.status !== 201) throw new Error(`The upload answered ${uploaded.status}`);
  const { id: imageId } = (await uploaded.json()) as { id: string };
  const ids = await Promise.all(
    ["anime", "fantasy"].map(async (style) => {
      const asked = await call(`/api/token-images/${imageId}/stylize`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ style }),
      });
      if (asked.status !== 202) throw new Error(`The ${style} style answered ${asked.status}`);
      return ((await asked.json()) as { id: string }).id;
    }),
  );
  const started = Date.now();
  for (;;) {
    const states = ids.map(
      (id) =>
        server.query<{ status: string }>("select status from stylized_images where id = ?", id)[0]
          ?.status,
    );
    if (states.every((state) => state === "completed" || state === "failed"))
      return `${states.join(" and ")} after ${((Date.now() - started) / 1000).toFixed(1)} s`;
    if (Date.now() - started > 300_000) throw new Error("The two styles took over 5 minutes");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function benchSoakMemory(
  scratch: string,
  port: number,
  seconds: number,
  listingCount: number,
): Promise<BenchRow[]> {
  const dataDir = path.join(scratch, "soak");
  const metricsToken = crypto.randomBytes(24).toString("hex");
  const env = { METRICS_TOKEN: metricsToken };
  await (await startBenchServer({ dataDir, port, seed: true, env })).stop();
  const database = path.join(dataDir, "selfie-studio.sqlite");
  const creators = seedCreators(database, 500);
  giveHandles(database, creators.slice(1, 200));
  seedListings(database, 0, listingCount, creators);
  const paths = soakPaths(database);
  const server = await startBenchServer({ dataDir, port, seed: true, env });
  try {
    const token = await signIn(server);
    for (const pathname of paths.slice(-10)) await (await server.fetch(pathname)).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleKb = await settledRss(server);
    const reset = resetPeak(server.pid);
    let sampledKb = residentKb(server.pid, "VmRSS");
    const highest = { pageCache: 0, heapUsed: 0, heapTotal: 0 };
    let sampling = true;
    const sampler = (async () => {
      for (let tick = 0; sampling; tick++) {
        sampledKb = Math.max(sampledKb, residentKb(server.pid, "VmRSS"));
        if (tick % 40 === 0) {
          const text = await (
            await server.fetch("/metrics", { headers: { Authorization: `Bearer ${metricsToken}` } })
          ).text();
          highest.pageCache = Math.max(
            highest.pageCache,
            metric(text, "selfie_page_cache_bytes") ?? 0,
          );
          highest.heapUsed = Math.max(
            highest.heapUsed,
            metric(text, "selfie_nodejs_heap_size_used_bytes") ?? 0,
          );
          highest.heapTotal = Math.max(
            highest.heapTotal,
            metric(text, "selfie_nodejs_heap_size_total_bytes") ?? 0,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    let next = 0;
    const soak = autocannon({
      url: server.origin,
      connections: 20,
      duration: seconds,
      requests: [
        {
          setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }),
        },
      ],
    });
    const styled = await twoStyles(server, token);
    const result = await soak;
    sampling = false;
    await sampler;
    if (result.errors > 0 || result.non2xx > 0)
      throw new Error(`The soak had ${result.errors} errors and ${result.non2xx} non-2xx answers`);
    const peakKb = Math.max(sampledKb, reset ? residentKb(server.pid, "VmHWM") : 0);
    const mb = (bytes: number) => bytes / 1024 / 1024;
    const what = `${seconds} s at 20 connections over ${paths.length} public URLs (${result.requests.total} requests) at ${listingCount / 1000}k listings, two styles ${styled}`;
    return [
      row({
        name: `peak RSS, soak + two styles: ${what}`,
        value: peakKb / 1024,
        baseline: idleKb / 1024,
        unit: "MB",
        limit: PEAK_LIMIT_MB,
        limitOf: "value",
        against: `idle RSS of that server; limit ${PEAK_LIMIT_MB} MB (peak: ${reset ? "VmHWM" : "sampled VmRSS"})`,
      }),
      row({
        name: "page cache at its highest during the soak",
        value: mb(highest.pageCache),
        baseline: peakKb / 1024,
        unit: "MB",
        limit: null,
        limitOf: "ratio",
        against: "the peak RSS (its share); bounded by PAGE_CACHE_MB",
      }),
      row({
        name: "JavaScript heap in use at its highest during the soak",
        value: mb(highest.heapUsed),
        baseline: peakKb / 1024,
        unit: "MB",
        limit: null,
        limitOf: "ratio",
        against: `the peak RSS (its share); heap reserved ${mb(highest.heapTotal).toFixed(0)} MB`,
      }),
    ];
  } finally {
    await server.stop();
  }
}
