import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import sharp from "sharp";
import { DEMO_CREATOR } from "#db/demo-account";
import { startServer, type RunningServer } from "../../tests/process/support/server-process";
import { median, medianMs, row, type BenchRow } from "./measure";
import { seedCreators, seedListings } from "./seed-listings";

/**
 * The benches that need the real server process (`node scripts/start.mjs`,
 * production build): optimize over HTTP, marketplace load, memory under
 * uploads. Each server runs on a fresh data directory under `scratch`.
 */

async function signIn(server: RunningServer): Promise<string> {
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
  const server = await startServer({ dataDir: path.join(scratch, "optimize"), port, seed: true });
  try {
    const token = await signIn(server);
    const [stylized] = server.query<{ id: string; file_key: string }>(
      "select id, file_key from stylized_images where status = 'completed' and file_key is not null limit 1",
    );
    const settings = { quality: 75, format: "webp", resolution: "1200x1200", watermark: false, socialOptimized: false };
    const overHttp = async () => {
      const response = await server.fetch("/api/images/optimize", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ imageId: stylized.id, ...settings }),
      });
      if (response.status !== 200) throw new Error(`optimize answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    };
    const source = path.join(server.dataDir, "files", stylized.file_key);
    const direct = () =>
      sharp(source).rotate().resize({ width: 1200, height: 1200, fit: "inside", withoutEnlargement: true }).webp({ quality: 75, effort: 4 }).toBuffer();
    const value = await medianMs(overHttp, runs);
    const baseline = await medianMs(direct, runs);
    return [row({ name: "optimize over HTTP (web preset)", value, baseline, unit: "ms", limit: 2, limitOf: "ratio", against: "sharp called directly, same job" })];
  } finally {
    await server.stop();
  }
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
}

async function load(server: RunningServer, pathname: string, seconds: number, connections: number): Promise<Load> {
  const result = await autocannon({ url: `${server.origin}${pathname}`, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${pathname}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/**
 * /marketplace and /api/marketplace at 1,000 and 100,000 listings, against
 * /healthz of the same server, with 1 connection (one visitor at a time: the
 * latency a request costs) and with 10 (saturation: throughput, and latency
 * that is mostly waiting in line; the load generator shares the machine).
 */
export async function benchMarketplace(scratch: string, port: number, seconds = 5): Promise<BenchRow[]> {
  const dataDir = path.join(scratch, "marketplace");
  // Migrate (and make the super admin) once, then add the bench data while no server runs.
  await (await startServer({ dataDir, port })).stop();
  const database = path.join(dataDir, "selfie-studio.sqlite");
  const creators = seedCreators(database, 500);
  const rows: BenchRow[] = [];
  let seeded = 0;
  for (const [label, count] of [["1k", 1_000], ["100k", 100_000]] as const) {
    seedListings(database, seeded, count, creators);
    seeded = count;
    const server = await startServer({ dataDir, port });
    try {
      for (let i = 0; i < 200; i++) await (await server.fetch("/api/marketplace")).arrayBuffer(); // warm-up
      for (const connections of [1, 10]) {
        const trivial = await load(server, "/healthz", seconds, connections);
        for (const pathname of ["/marketplace", "/api/marketplace"]) {
          const measured = await load(server, pathname, seconds, connections);
          const name = `${pathname} @${label}, c=${connections}`;
          rows.push(
            row({ name: `${name}: req/s`, value: measured.rps, baseline: trivial.rps, unit: "req/s", limit: null, limitOf: "ratio", against: "/healthz req/s" }),
            row({ name: `${name}: p50`, value: measured.p50, baseline: trivial.p50, unit: "ms", limit: null, limitOf: "ratio", against: "/healthz p50" }),
            row({ name: `${name}: p99`, value: measured.p99, baseline: trivial.p99, unit: "ms", limit: 50, limitOf: "value", against: "/healthz p99; limit 50 ms" }),
          );
        }
      }
    } finally {
      await server.stop();
    }
  }
  return rows;
}

function residentKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  if (!match) throw new Error(`No ${field} for process ${pid}`);
  return Number(match[1]);
}

/** A PNG of random pixels (incompressible) just under `bytes`. */
async function noisePng(bytes: number): Promise<Buffer> {
  let side = Math.floor(Math.sqrt(bytes / 3));
  for (;;) {
    const png = await sharp(crypto.randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
    if (png.length <= bytes) return png;
    side -= 4;
  }
}

/** Peak resident memory while `count` uploads of `image` arrive at once, sampled every 5 ms. */
async function peakDuringUploads(server: RunningServer, token: string, image: Buffer, count: number) {
  let peak = residentKb(server.pid, "VmRSS");
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, residentKb(server.pid, "VmRSS"));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const answers = await Promise.all(
    Array.from({ length: count }, async () => {
      const form = new FormData();
      form.set("image", new Blob([new Uint8Array(image)], { type: "image/png" }), "big.png");
      const response = await server.fetch("/api/token-images/upload", { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
      await response.arrayBuffer();
      return response.status;
    }),
  );
  sampling = false;
  await sampler;
  const accepted = answers.filter((status) => status === 201).length;
  if (accepted !== count) throw new Error(`Only ${accepted} of ${count} uploads were accepted: ${answers.join(", ")}`);
  return peak;
}

async function settledRss(server: RunningServer): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) {
    samples.push(residentKb(server.pid, "VmRSS"));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return median(samples);
}

/** Peak memory of the server during 10 concurrent uploads of 9.9 MB (and of 1 MB), against its idle memory. */
export async function benchUploadMemory(scratch: string, port: number): Promise<BenchRow[]> {
  const large = await noisePng(Math.floor(9.9 * 1024 * 1024));
  const small = await noisePng(1024 * 1024);
  const server = await startServer({ dataDir: path.join(scratch, "uploads"), port, seed: true });
  try {
    const token = await signIn(server);
    // One upload of each first, so code paths are loaded before "idle" is read.
    await peakDuringUploads(server, token, small, 1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = await settledRss(server);
    const peakSmall = await peakDuringUploads(server, token, small, 10);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const peakLarge = await peakDuringUploads(server, token, large, 10);
    const mb = (kb: number) => kb / 1024;
    const mbLarge = (large.length / 1024 / 1024).toFixed(1);
    const mbSmall = (small.length / 1024 / 1024).toFixed(1);
    return [
      row({ name: `peak RSS, 10 x ${mbSmall} MB uploads at once`, value: mb(peakSmall), baseline: mb(idle), unit: "MB", limit: null, limitOf: "ratio", against: "idle RSS of the same server" }),
      row({ name: `peak RSS, 10 x ${mbLarge} MB uploads at once`, value: mb(peakLarge), baseline: mb(idle), unit: "MB", limit: 3, limitOf: "ratio", against: "idle RSS of the same server" }),
      row({
        name: `RSS growth, ${mbLarge} MB vs ${mbSmall} MB uploads`,
        value: mb(peakLarge - idle),
        baseline: mb(Math.max(1, peakSmall - idle)),
        unit: "MB",
        limit: null,
        limitOf: "ratio",
        against: "growth with the small uploads",
      }),
    ];
  } finally {
    await server.stop();
  }
}
