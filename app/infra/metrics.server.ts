import client from "prom-client";
import { sql } from "kysely";
import type { DB } from "./db.server";
import { postgresPoolOf } from "./db.server";
import { engineOf } from "./sql-dialect.server";

/**
 * The process's Prometheus metrics (prom-client), served by GET /metrics
 * (app/web/metrics-endpoint.server.ts). Labels are small fixed sets (a
 * route family, a status, a job kind, a style id): never a raw path, an id,
 * an address or anything a user typed.
 *
 * Counters and histograms are counted as things happen; the job queue's
 * figures and the database pool's are read when the scrape comes.
 */

const PREFIX = "selfie_";

function makeMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: PREFIX });
  const httpRequests = new client.Counter({
    name: `${PREFIX}http_requests_total`,
    help: "HTTP requests answered, by route family, method and status code.",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new client.Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: "Time to answer an HTTP request (until the response ended), by route family and status code.",
    labelNames: ["route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const jobsQueued = new client.Gauge({
    name: `${PREFIX}jobs_queued`,
    help: "Jobs waiting in the queue (queued, due or not), by kind; read at scrape time.",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const jobsRunning = new client.Gauge({
    name: `${PREFIX}jobs_running`,
    help: "Jobs a worker holds, by kind; read at scrape time.",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const jobsOldestAge = new client.Gauge({
    name: `${PREFIX}jobs_oldest_queued_age_seconds`,
    help: "Age of the oldest due queued job (since it became due), by kind; 0 when none waits.",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const jobsFailed = new client.Gauge({
    name: `${PREFIX}jobs_failed`,
    help: "Jobs in the failed state (kept for the admin's Jobs view), by kind; read at scrape time.",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const jobFailures = new client.Counter({
    name: `${PREFIX}job_failures_total`,
    help: "Failed job attempts in this process, by kind and outcome (retry: tried again later; final: failed for good).",
    labelNames: ["kind", "outcome"] as const,
    registers: [registry],
  });
  const stylingSeconds = new client.Histogram({
    name: `${PREFIX}styling_duration_seconds`,
    help: "Time the style engine took to make one style, by style id and outcome.",
    labelNames: ["style", "outcome"] as const,
    buckets: [1, 2, 5, 10, 20, 30, 60, 120, 300],
    registers: [registry],
  });
  const mailFailures = new client.Counter({
    name: `${PREFIX}mail_failures_total`,
    help: "Failed attempts to send a message, by outcome (retry or final).",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const payoutFailures = new client.Counter({
    name: `${PREFIX}payout_failures_total`,
    help: "Failed attempts at a creator's transfer or its reversal, by job kind and outcome (retry or final).",
    labelNames: ["kind", "outcome"] as const,
    registers: [registry],
  });
  const pageCache = new client.Counter({
    name: `${PREFIX}page_cache_requests_total`,
    help: "Cacheable visitor pages and answers, by result: hit (served from a copy) or miss (rendered).",
    labelNames: ["result"] as const,
    registers: [registry],
  });
  const pageCacheBytes = new client.Gauge({
    name: `${PREFIX}page_cache_bytes`,
    help: "The bytes the visitors' page cache holds (pages and headers), bounded by PAGE_CACHE_MB.",
    registers: [registry],
  });
  const dbPool = new client.Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: "PostgreSQL pool connections by state: total, idle, waiting (requests waiting for a connection). Absent on SQLite (one connection, no pool).",
    labelNames: ["state"] as const,
    registers: [registry],
  });
  const reportsOpen = new client.Gauge({
    name: `${PREFIX}reports_open`,
    help: "Confirmed reports of listings and storefronts waiting for the admin's decision; read at scrape time.",
    registers: [registry],
  });
  const reportsOverdue = new client.Gauge({
    name: `${PREFIX}reports_overdue`,
    help: "Open reports past their due time (48 hours after confirmation); read at scrape time.",
    registers: [registry],
  });
  return {
    registry,
    reportsOpen,
    reportsOverdue,
    httpRequests,
    httpDuration,
    jobsQueued,
    jobsRunning,
    jobsOldestAge,
    jobsFailed,
    jobFailures,
    stylingSeconds,
    mailFailures,
    payoutFailures,
    pageCache,
    pageCacheBytes,
    dbPool,
  };
}

type Metrics = ReturnType<typeof makeMetrics>;
const globalForMetrics = globalThis as unknown as {
  __selfieStudioMetrics?: Metrics;
  __selfieStudioScrapeReaders?: Map<string, ScrapeReader>;
};

/** Reads a feature's figures into the gauges when the scrape comes (registered at boot, app/boot). */
export type ScrapeReader = (db: DB, now: Date) => Promise<void>;

/** Registers (or replaces) the reader named `name`; every scrape runs the readers after the job queue's figures. */
export function readAtScrape(name: string, reader: ScrapeReader): void {
  globalForMetrics.__selfieStudioScrapeReaders ??= new Map();
  globalForMetrics.__selfieStudioScrapeReaders.set(name, reader);
}

/** The reports' figures (app/features/reports), set by their scrape reader. */
export function setReportFigures(figures: { open: number; overdue: number }): void {
  const m = metrics();
  m.reportsOpen.set(figures.open);
  m.reportsOverdue.set(figures.overdue);
}

/** The process's metrics (made once, kept across dev reloads). */
export function metrics(): Metrics {
  globalForMetrics.__selfieStudioMetrics ??= makeMetrics();
  return globalForMetrics.__selfieStudioMetrics;
}

export type FailureOutcome = "retry" | "final";

export function countRequest(route: string, method: string, status: number, seconds: number) {
  const m = metrics();
  m.httpRequests.inc({ route, method, status: String(status) });
  m.httpDuration.observe({ route, status: String(status) }, seconds);
}

export function countJobFailure(kind: string, outcome: FailureOutcome) {
  metrics().jobFailures.inc({ kind, outcome });
}

export function observeStyling(style: string, outcome: "done" | "failed", seconds: number) {
  metrics().stylingSeconds.observe({ style, outcome }, seconds);
}

export function countMailFailure(outcome: FailureOutcome) {
  metrics().mailFailures.inc({ outcome });
}

export function countPayoutFailure(kind: string, outcome: FailureOutcome) {
  metrics().payoutFailures.inc({ kind, outcome });
}

export function countPageCache(result: "hit" | "miss") {
  metrics().pageCache.inc({ result });
}

export function setPageCacheBytes(bytes: number) {
  metrics().pageCacheBytes.set(bytes);
}

/** Reads the job queue's figures and the pool's into the gauges. */
async function readDatabaseFigures(db: DB, now: Date) {
  const m = metrics();
  const nowText = now.toISOString();
  const rows = await db
    .selectFrom("jobs")
    .select([
      "kind",
      "status",
      (eb) => eb.fn.countAll<number>().as("count"),
      sql<
        string | null
      >`min(case when status = 'queued' and run_at <= ${nowText} then run_at end)`.as("oldest_due"),
    ])
    .where("status", "in", ["queued", "running", "failed"])
    .groupBy(["kind", "status"])
    .execute();
  m.jobsQueued.reset();
  m.jobsRunning.reset();
  m.jobsFailed.reset();
  m.jobsOldestAge.reset();
  for (const row of rows) {
    const count = Number(row.count);
    if (row.status === "queued") {
      m.jobsQueued.set({ kind: row.kind }, count);
      const oldest = row.oldest_due ? Date.parse(row.oldest_due) : NaN;
      m.jobsOldestAge.set(
        { kind: row.kind },
        Number.isFinite(oldest) ? Math.max(0, (now.getTime() - oldest) / 1000) : 0,
      );
    } else if (row.status === "running") m.jobsRunning.set({ kind: row.kind }, count);
    else m.jobsFailed.set({ kind: row.kind }, count);
  }
  m.dbPool.reset();
  if (engineOf(db) === "postgres") {
    const pool = postgresPoolOf(db);
    if (pool) {
      m.dbPool.set({ state: "total" }, pool.totalCount);
      m.dbPool.set({ state: "idle" }, pool.idleCount);
      m.dbPool.set({ state: "waiting" }, pool.waitingCount);
    }
  }
}

/** The scrape: every metric in Prometheus text format, the database's figures read now. */
export async function metricsText(
  db: DB,
  now = new Date(),
): Promise<{ body: string; contentType: string }> {
  const m = metrics();
  await readDatabaseFigures(db, now);
  for (const reader of globalForMetrics.__selfieStudioScrapeReaders?.values() ?? []) {
    await reader(db, now);
  }
  return { body: await m.registry.metrics(), contentType: m.registry.contentType };
}
