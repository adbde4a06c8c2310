import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import autocannon from "autocannon";
import SQLite from "better-sqlite3";
import sharp from "sharp";
import { sql } from "kysely";
import { DEMO_CREATOR } from "#db/demo-account";
import { openDatabase } from "~/infra/db.server";
import {
  startServer,
  type RunningServer,
  type ServerOptions,
} from "../../tests/process/support/server-process";
import { median, pairedMedianMs, row, type BenchRow } from "./measure";
import { seedCreators, seedListings } from "./seed-listings";

/**
 * The benches that need the real server process (`node scripts/start.mjs`,
 * production build): optimize over HTTP, marketplace load, memory under
 * uploads. Each server runs on a fresh data directory under `scratch`.
 */

/** True when something already answers on the port (another bench, another server). */
function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "localhost" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * `node scripts/start.mjs` on a port nothing else holds, and proof that the
 * server that answered /healthz is this one (its database file exists):
 * otherwise a stray server on the same port would be measured instead.
 */
export async function startBenchServer(options: ServerOptions): Promise<RunningServer> {
  if (await portTaken(options.port)) {
    throw new Error(
      `Port ${options.port} is already in use: stop what runs there, or pass --port=<another base port>.`,
    );
  }
  const server = await startServer({
    ...options,
    env: { ADMIN_EMAIL: "admin@bench.test", ADMIN_PASSWORD: "bench-admin-pass", ...options.env },
  });
  // On PostgreSQL the data directory holds no database file, but the app secret the server made.
  const made = options.env?.DATABASE_URL ? "app-secret" : "selfie-studio.sqlite";
  if (!fs.existsSync(path.join(options.dataDir, made))) {
    await server.kill();
    throw new Error(
      `Something else answered on port ${options.port} while the bench server was starting.`,
    );
  }
  return withOutputOnFailure(server);
}

/** The server's fetch, but a failed request (refused, reset) also tells what the server printed. */
function withOutputOnFailure(server: RunningServer): RunningServer {
  const plain = server.fetch;
  return {
    ...server,
    fetch: async (pathname, init) => {
      try {
        return await plain(pathname, init);
      } catch (error) {
        throw new Error(
          `${pathname} on ${server.origin} failed (${String(error)}); the server printed:\n${server.output()}`,
          {
            cause: error,
          },
        );
      }
    },
  };
}

export async function signIn(server: RunningServer): Promise<string> {
  const response = await server.fetch("/api/token-login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: DEMO_CREATOR.email, password: DEMO_CREATOR.password }),
  });
  if (response.status !== 200) throw new Error(`Sign-in answered ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

/** POST /api/images/optimize (the "web" preset) against the same job done by sharp directly. */
export async function benchOptimize(scratch: string, port: number, runs = 20): Promise<BenchRow[]> {
  const server = await startBenchServer({
    dataDir: path.join(scratch, "optimize"),
    port,
    seed: true,
  });
  try {
    const token = await signIn(server);
    const [stylized] = server.query<{ id: string; file_key: string }>(
      "select id, file_key from stylized_images where status = 'completed' and file_key is not null limit 1",
    );
    const settings = {
      quality: 75,
      format: "webp",
      resolution: "1200x1200",
      watermark: false,
      socialOptimized: false,
    };
    const overHttp = async () => {
      const response = await server.fetch("/api/images/optimize", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ imageId: stylized.id, ...settings }),
      });
      if (response.status !== 200)
        throw new Error(`optimize answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    };
    const source = path.join(server.dataDir, "files", stylized.file_key);
    const direct = () =>
      sharp(source)
        .rotate()
        .resize({ width: 1200, height: 1200, fit: "inside", withoutEnlargement: true })
        .webp({ quality: 75, effort: 4 })
        .toBuffer();
    const { value, baseline } = await pairedMedianMs(overHttp, direct, runs);
    return [
      row({
        name: "optimize over HTTP (web preset)",
        value,
        baseline,
        unit: "ms",
        limit: 2,
        limitOf: "ratio",
        against: "sharp called directly, same job",
      }),
    ];
  } finally {
    await server.stop();
  }
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  /** CPU time the serving process spent per request (all its threads), in µs; NaN where /proc cannot tell. */
  cpuPerRequestUs: number;
}

/** User and system CPU seconds a process has used so far (Linux's /proc), or NaN elsewhere. */
function cpuSecondsOf(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

async function load(
  server: { origin: string; pid?: number },
  pathname: string,
  seconds: number,
  connections: number,
): Promise<Load> {
  const cpuBefore = cpuSecondsOf(server.pid);
  const result = await autocannon({
    url: `${server.origin}${pathname}`,
    connections,
    duration: seconds,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `${pathname}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`,
    );
  }
  const cpu = cpuSecondsOf(server.pid) - cpuBefore;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuPerRequestUs: (cpu * 1e6) / Math.max(1, result.requests.total),
  };
}

/** What the bare server runs: one file's bytes as the answer to every request, with its content type; prints its port. */
const BARE_SERVER = `
const http = require("node:http");
const body = require("node:fs").readFileSync(process.argv[1]);
const type = process.argv[2];
const server = http.createServer((request, response) => {
  response.writeHead(200, { "Content-Type": type, "Content-Length": body.length });
  response.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

/**
 * The physical limit of serving a page on this machine: its bytes, as fetched
 * from the real server, answered by a bare node:http server in a process of
 * its own (no Express, no Remix, no cache lookup, no nonce).
 */
async function startBareServer(
  scratch: string,
  body: Buffer,
  contentType: string,
): Promise<{ origin: string; pid?: number; stop: () => void }> {
  const file = path.join(scratch, `bare-${crypto.randomBytes(4).toString("hex")}`);
  fs.writeFileSync(file, body);
  const child = spawn(process.execPath, ["-e", BARE_SERVER, file, contentType], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`The bare server exited (${code})`)));
    child.stdout.once("data", (chunk: Buffer) => resolve(Number(String(chunk).trim())));
  });
  return { origin: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill() };
}

/**
 * /marketplace and /api/marketplace at 1,000 and 100,000 listings, against
 * /healthz of the same server (which goes through Remix) and against the
 * physical limit (the /marketplace page's bytes as served to a visitor,
 * answered by a bare node:http server), with 1 connection (one visitor at a
 * time: the latency a request costs) and with 10 (saturation: throughput, and
 * latency that is mostly waiting in line; the load generator shares the machine).
 */
export async function benchMarketplace(
  scratch: string,
  port: number,
  seconds = 5,
  /** A fresh PostgreSQL database to run the server on instead of SQLite (the same data is copied in). */
  postgresUrl?: string,
): Promise<BenchRow[]> {
  const dataDir = path.join(scratch, postgresUrl ? "marketplace-postgres" : "marketplace");
  const env: Record<string, string> = postgresUrl ? { DATABASE_URL: postgresUrl } : {};
  // The bench data is made in an SQLite file (and copied to PostgreSQL when that is measured).
  const seedDir = path.join(scratch, postgresUrl ? "marketplace-postgres-seed" : "marketplace");
  // Migrate (and make the super admin) once, then add the bench data while no server runs.
  await (await startBenchServer({ dataDir: seedDir, port })).stop();
  if (postgresUrl) await (await startBenchServer({ dataDir, port, env })).stop();
  const database = path.join(seedDir, "selfie-studio.sqlite");
  const creators = seedCreators(database, 500);
  giveHandle(database, creators[1], STOREFRONT_HANDLE);
  const rows: BenchRow[] = [];
  let seeded = 0;
  for (const [label, count] of [
    ["1k", 1_000],
    ["100k", 100_000],
  ] as const) {
    seedListings(database, seeded, count, creators);
    seeded = count;
    if (postgresUrl) await copyBenchData(database, postgresUrl);
    const server = await startBenchServer({ dataDir, port, env });
    try {
      const first = (await (await server.fetch("/api/marketplace")).json()) as { items: unknown[] };
      if (first.items.length === 0)
        throw new Error(`/api/marketplace lists nothing at ${label} listings`);
      const listingPage = await benchListingPage(server, dataDir);
      const storefront = `/creators/${STOREFRONT_HANDLE}`;
      // Warm-up: every route, so none is measured while still cold.
      for (let i = 0; i < 100; i++) {
        await (await server.fetch("/api/marketplace")).arrayBuffer();
        await (await server.fetch("/marketplace")).arrayBuffer();
        await (await server.fetch(listingPage)).arrayBuffer();
        await (await server.fetch(storefront)).arrayBuffer();
      }
      // The page as a visitor without cookies is served it (from the visitors' cache), for the bare server.
      const served = await server.fetch("/marketplace");
      const bare = await startBareServer(
        scratch,
        Buffer.from(await served.arrayBuffer()),
        served.headers.get("Content-Type") ?? "text/html; charset=utf-8",
      );
      try {
        for (const connections of [1, 10]) {
          const trivial = await load(server, "/healthz", seconds, connections);
          const limit = await load(bare, "/", seconds, connections);
          const tag = `@${label}, c=${connections}`;
          const marketplace = await load(server, "/marketplace", seconds, connections);
          // A listing's page and a storefront, against /marketplace measured just before.
          for (const [pathname, title] of [
            [listingPage, "/marketplace/{id}"],
            [storefront, "/creators/{handle}"],
          ] as const) {
            const measured = await load(server, pathname, seconds, connections);
            const name = `${title} ${tag}`;
            rows.push(
              row({
                name: `${name}: req/s`,
                value: measured.rps,
                baseline: marketplace.rps,
                bare: limit.rps,
                unit: "req/s",
                // At least 0.8x /marketplace at 10 connections on the large marketplace.
                limit: connections === 10 && count === 100_000 ? 0.8 : null,
                limitOf: "ratio",
                atLeast: true,
                against: "/marketplace req/s",
              }),
              row({
                name: `${name}: p99`,
                value: measured.p99,
                baseline: marketplace.p99,
                bare: limit.p99,
                unit: "ms",
                limit: count === 100_000 ? 50 : null,
                limitOf: "value",
                against: count === 100_000 ? "/marketplace p99; limit 50 ms" : "/marketplace p99",
              }),
            );
          }
          rows.push(
            row({
              name: `bare node:http, the /marketplace bytes ${tag}: req/s`,
              value: limit.rps,
              baseline: trivial.rps,
              unit: "req/s",
              limit: null,
              limitOf: "ratio",
              atLeast: true,
              against: "/healthz req/s (the physical limit)",
            }),
            row({
              name: `bare node:http, the /marketplace bytes ${tag}: p99`,
              value: limit.p99,
              baseline: trivial.p99,
              unit: "ms",
              limit: null,
              limitOf: "ratio",
              against: "/healthz p99 (the physical limit)",
            }),
          );
          for (const pathname of ["/marketplace", "/api/marketplace"]) {
            const measured = await load(server, pathname, seconds, connections);
            const name = `${pathname} ${tag}`;
            rows.push(
              row({
                name: `${name}: req/s`,
                value: measured.rps,
                baseline: trivial.rps,
                bare: limit.rps,
                unit: "req/s",
                // The page must keep up with the server: at least 0.8x /healthz at 10 connections on the large marketplace.
                limit:
                  pathname === "/marketplace" && connections === 10 && count === 100_000
                    ? 0.8
                    : null,
                limitOf: "ratio",
                atLeast: true,
                against: "/healthz req/s",
              }),
              row({
                name: `${name}: p50`,
                value: measured.p50,
                baseline: trivial.p50,
                bare: limit.p50,
                unit: "ms",
                limit: null,
                limitOf: "ratio",
                against: "/healthz p50",
              }),
              row({
                name: `${name}: p99`,
                value: measured.p99,
                baseline: trivial.p99,
                bare: limit.p99,
                unit: "ms",
                // The budget is for the large marketplace, page and API alike: p99 at most 50 ms at 100,000 listings (docs/performance.md).
                limit: count === 100_000 ? 50 : null,
                limitOf: "value",
                against: count === 100_000 ? "/healthz p99; limit 50 ms" : "/healthz p99",
              }),
            );
          }
        }
      } finally {
        bare.stop();
      }
      rows.push(
        ...(await cachedPagesAgainstBare(scratch, server, label, seconds, [
          ["/marketplace", "/marketplace"],
          [listingPage, "/marketplace/{id}"],
          [storefront, "/creators/{handle}"],
          ["/api/marketplace", "/api/marketplace"],
        ])),
      );
    } finally {
      await server.stop();
    }
  }
  return rows;
}

/**
 * Each page the visitors' cache serves, at 10 connections, against a bare
 * node:http server answering that page's own bytes (its physical limit), in
 * turns (bare, page, bare, page) so that other load hits both alike: at least
 * 0.8x the bare server's requests per second, and a p99 under 10 ms.
 */
async function cachedPagesAgainstBare(
  scratch: string,
  server: RunningServer,
  label: string,
  seconds: number,
  pages: readonly (readonly [pathname: string, title: string])[],
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [pathname, title] of pages) {
    const served = await server.fetch(pathname);
    if (served.headers.get("X-Page-Cache") === null)
      throw new Error(`${pathname} is not served from the visitors' cache`);
    const bare = await startBareServer(
      scratch,
      Buffer.from(await served.arrayBuffer()),
      served.headers.get("Content-Type") ?? "text/html; charset=utf-8",
    );
    try {
      const bareRuns = [];
      const pageRuns = [];
      for (let turn = 0; turn < 2; turn++) {
        bareRuns.push(await load(bare, "/", seconds, 10));
        pageRuns.push(await load(server, pathname, seconds, 10));
      }
      const mean = (runs: { rps: number }[]) =>
        runs.reduce((sum, r) => sum + r.rps, 0) / runs.length;
      const worst = (runs: { p99: number }[]) => Math.max(...runs.map((r) => r.p99));
      const name = `${title} @${label}, c=10, a cache hit`;
      rows.push(
        row({
          name: `${name}: req/s`,
          value: mean(pageRuns),
          baseline: mean(bareRuns),
          unit: "req/s",
          limit: 0.8,
          limitOf: "ratio",
          atLeast: true,
          against: "bare node:http, the same bytes",
        }),
        row({
          name: `${name}: p99`,
          value: worst(pageRuns),
          baseline: worst(bareRuns),
          unit: "ms",
          limit: 10,
          limitOf: "value",
          against: "bare node:http p99; limit 10 ms",
        }),
      );
      // What a request costs the serving process, which other load on the machine changes little.
      const cpu = (runs: Load[]) =>
        runs.reduce((sum, r) => sum + r.cpuPerRequestUs, 0) / runs.length;
      if (Number.isFinite(cpu(pageRuns)) && Number.isFinite(cpu(bareRuns)))
        rows.push(
          row({
            name: `${name}: CPU per request`,
            value: cpu(pageRuns),
            baseline: cpu(bareRuns),
            unit: "µs",
            limit: null,
            limitOf: "ratio",
            against: "bare node:http CPU per request",
          }),
        );
    } finally {
      bare.stop();
    }
  }
  return rows;
}

/** The creator whose storefront the bench loads. */
const STOREFRONT_HANDLE = "bench-creator";

/** The bench's creators and listings, from the SQLite file into PostgreSQL (rows already there are kept). */
export async function copyBenchData(file: string, postgresUrl: string): Promise<void> {
  const sqlite = new SQLite(file, { readonly: true });
  const target = openDatabase({ url: postgresUrl, poolSize: 1 });
  try {
    for (const table of ["users", "listings"] as const) {
      const rows = sqlite.prepare(`select * from ${table} order by rowid`).all() as Record<
        string,
        unknown
      >[];
      for (let i = 0; i < rows.length; i += 1_000) {
        await target
          .insertInto(table)
          .values(rows.slice(i, i + 1_000) as never)
          .onConflict((conflict) => conflict.doNothing())
          .execute();
      }
    }
    await sql`analyze`.execute(target);
  } finally {
    sqlite.close();
    await target.destroy();
  }
}

function giveHandle(file: string, userId: string, handle: string) {
  const sqlite = new SQLite(file);
  sqlite.prepare("update users set handle = ? where id = ?").run(handle, userId);
  sqlite.close();
}

/**
 * The path of the newest listing's page. Bench listings name files that do
 * not exist, so this one gets a real preview: its page makes its social card
 * from it once, as a real listing's would.
 */
export async function benchListingPage(server: RunningServer, dataDir: string): Promise<string> {
  const page = (await (await server.fetch("/api/marketplace?limit=1")).json()) as {
    items: { id: string; previewUrl: string }[];
  };
  const listing = page.items[0];
  if (!listing) throw new Error("No listing to load the page of");
  const previewFile = path.join(dataDir, "files", listing.previewUrl.slice("/media/".length));
  fs.mkdirSync(path.dirname(previewFile), { recursive: true });
  if (!fs.existsSync(previewFile))
    await sharp({ create: { width: 512, height: 640, channels: 3, background: "#6d28d9" } })
      .jpeg()
      .toFile(previewFile);
  const pathname = `/marketplace/${listing.id}`;
  const first = await server.fetch(pathname);
  if (first.status !== 200) throw new Error(`${pathname} answered ${first.status}`);
  await first.arrayBuffer();
  return pathname;
}

export function residentKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  if (!match) throw new Error(`No ${field} for process ${pid}`);
  return Number(match[1]);
}

/**
 * Sets the process's VmHWM (peak resident memory) back to its current RSS
 * (`5` to /proc/<pid>/clear_refs, Linux 4.0+), so the next reading is the peak
 * of what follows. False where the kernel or the permissions do not allow it.
 */
export function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** A PNG of random pixels (incompressible, so a real image of that size) just under `bytes`. */
async function noisePng(bytes: number): Promise<Buffer> {
  let side = Math.floor(Math.sqrt(bytes / 3));
  for (;;) {
    const png = await sharp(crypto.randomBytes(side * side * 3), {
      raw: { width: side, height: side, channels: 3 },
    })
      .png({ compressionLevel: 1 })
      .toBuffer();
    if (png.length <= bytes) return png;
    side -= 4;
  }
}

interface Burst {
  /** Highest VmRSS seen, read every 5 ms. */
  sampledKb: number;
  /** VmHWM after the burst, reset just before it (null when it could not be reset). */
  hwmKb: number | null;
  accepted: number;
  statuses: number[];
}

/** `count` uploads of `image` at once; the server's peak resident memory meanwhile. */
async function uploadBurst(
  server: RunningServer,
  token: string,
  image: Buffer,
  count: number,
): Promise<Burst> {
  const reset = resetPeak(server.pid);
  let sampledKb = residentKb(server.pid, "VmRSS");
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      sampledKb = Math.max(sampledKb, residentKb(server.pid, "VmRSS"));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const statuses = await Promise.all(
    Array.from({ length: count }, async () => {
      const form = new FormData();
      form.set("image", new Blob([new Uint8Array(image)], { type: "image/png" }), "bench.png");
      const response = await server.fetch("/api/token-images/upload", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      });
      await response.arrayBuffer();
      return response.status;
    }),
  );
  sampling = false;
  await sampler;
  return {
    sampledKb,
    hwmKb: reset ? residentKb(server.pid, "VmHWM") : null,
    accepted: statuses.filter((status) => status === 201).length,
    statuses,
  };
}

export async function settledRss(server: RunningServer): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) {
    samples.push(residentKb(server.pid, "VmRSS"));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return median(samples);
}

interface UploadMemory {
  idleKb: number;
  peakKb: number;
  source: "VmHWM" | "sampled VmRSS";
  accepted: number;
  count: number;
}

/**
 * One fresh server per upload size, so neither burst inherits memory the other
 * left resident: one upload first (code paths loaded, libvips warmed), idle RSS
 * once settled, then `count` uploads at once.
 */
async function memoryForUploads(
  dataDir: string,
  port: number,
  image: Buffer,
  count: number,
): Promise<UploadMemory> {
  const server = await startBenchServer({ dataDir, port, seed: true });
  try {
    const token = await signIn(server);
    const warm = await uploadBurst(server, token, image, 1);
    if (warm.accepted !== 1)
      throw new Error(`The warm-up upload was refused (${warm.statuses.join(", ")})`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleKb = await settledRss(server);
    const burst = await uploadBurst(server, token, image, count);
    if (burst.accepted === 0)
      throw new Error(`No upload of ${count} was accepted: ${burst.statuses.join(", ")}`);
    const peakKb = Math.max(burst.sampledKb, burst.hwmKb ?? 0);
    return {
      idleKb,
      peakKb,
      source: burst.hwmKb === null ? "sampled VmRSS" : "VmHWM",
      accepted: burst.accepted,
      count,
    };
  } finally {
    await server.stop();
  }
}

/** Peak memory of the server during 10 concurrent uploads of 9.9 MB (and of 1 MB), against its idle memory. */
export async function benchUploadMemory(scratch: string, port: number): Promise<BenchRow[]> {
  const count = 10;
  const large = await noisePng(Math.floor(9.9 * 1024 * 1024));
  const small = await noisePng(1024 * 1024);
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const smallRun = await memoryForUploads(path.join(scratch, "uploads-small"), port, small, count);
  const largeRun = await memoryForUploads(path.join(scratch, "uploads-large"), port, large, count);
  const mb = (kb: number) => kb / 1024;
  const peakRow = (run: UploadMemory, image: Buffer, limit: number | null) =>
    row({
      name: `peak RSS, ${count} x ${mib(image.length)} MB uploads at once (${run.accepted}/${run.count} accepted)`,
      value: mb(run.peakKb),
      baseline: mb(run.idleKb),
      unit: "MB",
      limit,
      limitOf: "ratio",
      against: `idle RSS of that server (peak: ${run.source})`,
    });
  return [
    peakRow(smallRun, small, null),
    peakRow(largeRun, large, 3),
    row({
      name: `RSS growth, ${mib(large.length)} MB vs ${mib(small.length)} MB uploads`,
      value: mb(largeRun.peakKb - largeRun.idleKb),
      baseline: mb(Math.max(1024, smallRun.peakKb - smallRun.idleKb)),
      unit: "MB",
      limit: null,
      limitOf: "ratio",
      against: `growth with the ${mib(small.length)} MB uploads`,
    }),
  ];
}
