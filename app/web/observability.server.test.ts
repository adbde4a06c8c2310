import http from "node:http";
import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import type { PrometheusFamily } from "parse-prometheus-text-format";
import { getConfig } from "~/infra/config.server";
import type { Config } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { enqueueJob } from "~/infra/jobs/job-queue.server";
import { engineOf } from "~/infra/sql-dialect.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import { getLogger, Logger, redactSecrets, setLogger } from "~/infra/logger.server";
import { createHttpApp } from "./http-app.server";
import { routeFamily } from "./request-observation.server";
import { testTies } from "#tests/setup/ties";
import { rowWhere } from "#tests/setup/rows-where";

/**
 * The operator's view over real sockets: /metrics behind METRICS_TOKEN, the
 * request id (our own, answered, carried by every log line and by the jobs a
 * request queued; a caller's id only logged beside it), with a stand-in for
 * Remix behind the real HTTP front.
 */

const TOKEN = "metrics-token-for-tests-0123456789";
const JOB_KIND = "observed-test";

let servers: http.Server[] = [];
let lines: Record<string, unknown>[] = [];

beforeEach(async () => {
  lines = [];
  setLogger(new Logger("json", (line) => lines.push(JSON.parse(line))));
  await getDb().deleteFrom("jobs").execute();
});

afterEach(async () => {
  setLogger(undefined);
  await Promise.all(
    servers.map((server) => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      return closed;
    }),
  );
  servers = [];
});

async function start(metricsToken: string | undefined) {
  const config: Config = { ...getConfig(), METRICS_TOKEN: metricsToken };
  const app = createHttpApp({
    ties: testTies,
    apiRoutes: API_ROUTES,
    config,
    publicDir: os.tmpdir(),
    handle: async (request) => {
      const url = new URL(request.url);
      getLogger().info("serving a page", { path: url.pathname });
      if (url.pathname === "/enqueue") {
        await enqueueJob(getDb(), { kind: JOB_KIND, payload: {}, now: new Date() });
        return Response.json({ queued: true });
      }
      if (url.pathname === "/metrics") return new Response("Not Found", { status: 404 });
      return Response.json({ ok: true });
    },
  });
  const server = http.createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function scrape(base: string): Promise<PrometheusFamily[]> {
  const response = await fetch(`${base}/metrics`, {
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
  return parsePrometheusTextFormat(await response.text());
}

function value(families: PrometheusFamily[], name: string, labels: Record<string, string>) {
  const family = families.find((f) => f.name === name);
  const metric = family?.metrics.find((m) =>
    Object.entries(labels).every(([k, v]) => m.labels?.[k] === v),
  );
  return metric ? Number(metric.value ?? metric.count) : 0;
}

describe("/metrics", () => {
  it("is closed: 404 without METRICS_TOKEN set, and with it set, without or with a wrong bearer token", async () => {
    const off = await start(undefined);
    expect(
      (await fetch(`${off}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status,
    ).toBe(404);
    const on = await start(TOKEN);
    expect((await fetch(`${on}/metrics`)).status).toBe(404);
    const wrong = await fetch(`${on}/metrics`, { headers: { Authorization: "Bearer wrong" } });
    expect(wrong.status).toBe(404);
    expect(await wrong.text()).not.toContain("selfie_");
  });

  it("scrapes in Prometheus text format, with the families present and values moving", async () => {
    const base = await start(TOKEN);
    const before = await scrape(base);
    const names = before.map((family) => family.name);
    for (const name of [
      "selfie_http_requests_total",
      "selfie_http_request_duration_seconds",
      "selfie_jobs_queued",
      "selfie_jobs_oldest_queued_age_seconds",
      "selfie_job_failures_total",
      "selfie_styling_duration_seconds",
      "selfie_mail_failures_total",
      "selfie_payout_failures_total",
      "selfie_page_cache_requests_total",
      "selfie_db_pool_connections",
      "selfie_process_cpu_seconds_total",
    ]) {
      expect(names, name).toContain(name);
    }
    const home = { route: "marketplace", method: "GET", status: "200" };
    const counted = value(before, "selfie_http_requests_total", home);
    expect(value(before, "selfie_jobs_queued", { kind: JOB_KIND })).toBe(0);

    expect((await fetch(`${base}/marketplace/listing-id-123?q=secret`)).status).toBe(200);
    expect((await fetch(`${base}/enqueue`)).status).toBe(200);

    const after = await scrape(base);
    expect(value(after, "selfie_http_requests_total", home)).toBe(counted + 1);
    expect(value(after, "selfie_jobs_queued", { kind: JOB_KIND })).toBe(1);
    // PostgreSQL's pool is counted; SQLite has no pool and no such series.
    if (engineOf(getDb()) === "postgres")
      expect(value(after, "selfie_db_pool_connections", { state: "total" })).toBeGreaterThan(0);
    // Labels are route families: never a raw path, an id or a query.
    const text = await (
      await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    ).text();
    // (The parser keeps no labels of a histogram's series: its count is read from the text.)
    expect(
      Number(
        /^selfie_http_request_duration_seconds_count\{route="marketplace",status="200"\} (\d+)$/m.exec(
          text,
        )?.[1],
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain("listing-id-123");
    expect(text).not.toContain("secret");
  });

  it("names a small fixed set of route families", () => {
    expect(routeFamily("/")).toBe("home");
    expect(routeFamily("/marketplace/abc123")).toBe("marketplace");
    expect(routeFamily("/downloads/some-secret-token")).toBe("downloads");
    expect(routeFamily("/api/token-images/abc/stylize")).toBe("api/token-images");
    expect(routeFamily("/api/made-up")).toBe("api/other");
    expect(routeFamily("/wp-admin/x.php")).toBe("other");
  });
});

describe("request ids", () => {
  it("always answers an id of its own; a caller's well-formed X-Request-Id is only logged beside it", async () => {
    const base = await start(undefined);
    const fresh = (await fetch(`${base}/`)).headers.get("x-request-id");
    expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
    const served = lines.find((line) => line.msg === "serving a page");
    expect(served?.requestId).toBe(fresh);
    expect(served).not.toHaveProperty("callerRequestId");

    lines = [];
    const chosen = await fetch(`${base}/`, { headers: { "X-Request-Id": "edge-proxy-42.abc" } });
    const ours = chosen.headers.get("x-request-id");
    expect(ours).toMatch(/^[0-9a-f-]{36}$/);
    expect(ours).not.toBe(fresh);
    expect(lines.find((line) => line.msg === "serving a page")).toMatchObject({
      requestId: ours,
      callerRequestId: "edge-proxy-42.abc",
    });

    for (const bad of ["short", "x".repeat(200), 'inject"} {"level":"error', "has spaces here"]) {
      lines = [];
      const replaced = await fetch(`${base}/`, { headers: { "X-Request-Id": bad } });
      expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      const line = lines.find((entry) => entry.msg === "serving a page");
      expect(line, bad).not.toHaveProperty("callerRequestId");
      expect(JSON.stringify(lines)).not.toContain(bad);
    }
  });

  it("every line written while serving carries it, and so do the worker's lines for a job the request queued; the job never stores the caller's id", async () => {
    const base = await start(undefined);
    const response = await fetch(`${base}/enqueue`, {
      headers: { "X-Request-Id": "req-0123456789" },
    });
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.find((line) => line.msg === "serving a page")).toMatchObject({
      level: "info",
      requestId,
      callerRequestId: "req-0123456789",
    });
    const queued = await rowWhere("jobs", "request_id", "kind", JOB_KIND);
    expect(queued.request_id).toBe(requestId);

    const worker = new JobWorker({
      db: getDb(),
      handlers: {
        [JOB_KIND]: {
          parse: (payload) => payload,
          run: async () => {
            getLogger().info("working on it");
            throw Object.assign(new Error("no luck"), { retryable: false });
          },
        },
      },
      concurrency: 1,
      log: (line) => getLogger().warn(line),
    });
    await worker.drain();
    const jobLines = lines.filter((line) => line.jobKind === JOB_KIND);
    expect(jobLines.map((line) => line.msg)).toEqual([
      "working on it",
      expect.stringContaining("failed for good"),
    ]);
    for (const line of jobLines) {
      expect(line.requestId).toBe(requestId);
      expect(line).not.toHaveProperty("callerRequestId");
      expect(typeof line.time).toBe("string");
    }
  });
});

describe("the logger", () => {
  it("never writes credentials: headers, bearer tokens, URL tokens, AWS keys, passwords in URLs", () => {
    const logger = getLogger();
    const error = new Error(
      "Request failed: Authorization: Bearer abc.def.ghi Cookie: __session=s3cr3t\n https://u:hunter2@db.example/x?token=t0k3n&page=2 AKIAABCDEFGHIJKLMNOP /downloads/dl-secret-123",
    );
    logger.error("Upload failed", {
      error,
      headers: { authorization: "Bearer zzz", cookie: "a=b" },
    });
    const written = JSON.stringify(lines);
    for (const secret of [
      "abc.def.ghi",
      "s3cr3t",
      "hunter2",
      "t0k3n",
      "AKIAABCDEFGHIJKLMNOP",
      "zzz",
      "a=b",
      "dl-secret-123",
    ])
      expect(written, secret).not.toContain(secret);
    expect(written).toContain("page=2");
    expect(redactSecrets("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG")).not.toContain(
      "wJalrXUtnFEMI",
    );
  });
});
