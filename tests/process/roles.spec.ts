import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { STYLE_IDS } from "~/lib/styles";
import { STYLIZE_JOB } from "~/features/studio/styles/stylized-images.server";
import { eventually, signInCreator } from "./support/creator-session";
import { ROOT, startServer, type RunningServer } from "./support/server-process";

/**
 * Web and worker processes apart (ROLE), sharing one SQLite data directory as
 * two processes on one machine do: a `web` process serves the creator and runs
 * no job, a `worker` process on the same directory takes the queued work up
 * and answers nothing but its health checks; and two workers run a periodic
 * task once per period between them (the database lease), not once each.
 */

interface JobRow {
  id: string;
  kind: string;
  status: string;
}

function scratchFor(name: string) {
  const dir = path.join(ROOT, "tests", ".tmp", `process-roles-${name}`);
  fs.rmSync(dir, { recursive: true, force: true });
  return path.join(dir, "data");
}

const jobs = (server: RunningServer) =>
  server.query<JobRow>("select id, kind, status from jobs order by created_at");

test("a web process runs no job; a worker on the same data directory takes it up", async () => {
  const dataDir = scratchFor("web-worker");
  const servers: RunningServer[] = [];
  try {
    const web = await startServer({ dataDir, port: 6101, seed: true, env: { ROLE: "web" } });
    servers.push(web);
    expect(web.output()).toMatch(/Role: web/);
    expect(web.output()).not.toMatch(/Job worker started/);
    expect((await web.fetch("/")).status).toBe(200);

    const creator = await signInCreator(web);
    const image = await creator.uploadImage();
    const stylized = await creator.stylize(image.id, STYLE_IDS[0]);
    // Long enough for any worker to have claimed it (the poll is a second).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const waiting = jobs(web);
    expect(waiting.map((job) => job.kind)).toContain(STYLIZE_JOB);
    expect(
      waiting.filter((job) => job.status !== "queued"),
      "no job ran in the web process",
    ).toEqual([]);
    const beforeWorker = await creator.call(`/api/token-stylized-images/${stylized.id}`);
    expect(((await beforeWorker.json()) as { status: string }).status).not.toBe("completed");

    const worker = await startServer({ dataDir, port: 6102, env: { ROLE: "worker" } });
    servers.push(worker);
    expect(worker.output()).toMatch(/Role: worker/);
    expect(worker.output()).toMatch(/Job worker started/);
    await eventually(
      "every job done by the worker",
      () => (jobs(web).every((job) => job.status === "done") ? true : undefined),
      60_000,
    );
    const done = await creator.call(`/api/token-stylized-images/${stylized.id}`);
    const result = (await done.json()) as { status: string; styledUrl: string | null };
    expect(result.status).toBe("completed");
    // The web process serves the worker's result from the shared volume.
    expect((await web.fetch(result.styledUrl!)).status).toBe(200);

    // The worker answers its probes and nothing else.
    expect((await worker.fetch("/healthz")).status).toBe(200);
    const ready = await worker.fetch("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ok", database: "ok", files: "ok" });
    for (const pathname of ["/", "/marketplace", "/api/marketplace", result.styledUrl!]) {
      expect((await worker.fetch(pathname)).status, pathname).toBe(404);
    }
    expect((await web.fetch("/readyz")).status).toBe(200);
  } finally {
    for (const server of servers.reverse()) await server.stop();
  }
});

test("two worker processes run a periodic task once per period between them", async () => {
  const dataDir = scratchFor("two-workers");
  const periodMs = 2_000;
  const env = { ROLE: "worker", PERIODIC_PROBE_SECONDS: String(periodMs / 1000) };
  const servers: RunningServer[] = [];
  try {
    servers.push(await startServer({ dataDir, port: 6103, env }));
    servers.push(await startServer({ dataDir, port: 6104, env }));
    const watchFrom = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5 * periodMs + 1_000));
    const watchedMs = Date.now() - watchFrom;

    const runs = servers
      .flatMap((server) =>
        [...server.output().matchAll(/Periodic probe ran at (\S+) in process (\d+)\./g)].map(
          (match) => ({ at: Date.parse(match[1]!), pid: Number(match[2]) }),
        ),
      )
      .filter((run) => run.at >= watchFrom)
      .sort((a, b) => a.at - b.at);
    // Once per period: never two runs closer than a period (a little clock slack aside) ...
    for (let n = 1; n < runs.length; n++) {
      expect(runs[n]!.at - runs[n - 1]!.at, `runs ${n - 1} and ${n}`).toBeGreaterThanOrEqual(
        periodMs - 100,
      );
    }
    // ... and not fewer either: the task did run every period, in one process or the other.
    expect(runs.length).toBeGreaterThanOrEqual(Math.floor(watchedMs / periodMs) - 1);
    expect(runs.length).toBeLessThanOrEqual(Math.ceil(watchedMs / periodMs) + 1);
    const pids = new Set(runs.map((run) => run.pid));
    expect(servers.some((server) => pids.has(server.pid))).toBe(true);
  } finally {
    for (const server of servers.reverse()) await server.stop();
  }
});
