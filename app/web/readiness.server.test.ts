import fs from "node:fs";
import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getDb, openDatabase } from "~/infra/db.server";
import { LocalFileStore, type FileStore } from "~/infra/file-store.server";
import { loader as readyzLoader } from "~/routes/_resources+/readyz";
import { loader as healthzLoader } from "~/routes/_resources+/healthz";
import { createHttpApp } from "./http-app.server";
import { readinessResponse } from "./readiness.server";
import { testTies } from "#tests/setup/ties";

/**
 * Readiness (/readyz) apart from liveness (/healthz): the database and the
 * file store, each reported; and a worker process that answers only the two.
 */

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "readyz-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A file store whose folder can never be made: its parent is a file. */
function unreachableStore(): FileStore {
  const blocker = path.join(scratch, "not-a-folder");
  fs.writeFileSync(blocker, "");
  return new LocalFileStore(path.join(blocker, "files"));
}

/** A PostgreSQL address where nothing listens. */
async function databaseThatRefuses() {
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return openDatabase(`postgres://selfie@127.0.0.1:${port}/selfie`);
}

describe("/readyz", () => {
  it("is ready when the database reads and the file store is reachable", async () => {
    const response = await readyzLoader();
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok", database: "ok", files: "ok" });
  });

  it("answers 503 naming the file store when only the store is down, while liveness holds", async () => {
    const response = await readinessResponse({ db: getDb(), store: unreachableStore() });
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect(await response.json()).toEqual({
      status: "error",
      database: "ok",
      files: "unavailable",
      message: "File store unavailable",
    });
    expect((await healthzLoader()).status).toBe(200);
  });

  it("answers 503 naming the database when only the database is down", async () => {
    const db = await databaseThatRefuses();
    try {
      const response = await readinessResponse({
        db,
        store: new LocalFileStore(getConfig().filesDir),
      });
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        status: "error",
        database: "unavailable",
        files: "ok",
        message: "Database unavailable",
      });
    } finally {
      await db.destroy().catch(() => undefined);
    }
  });

  it("names both when both are down, and answers within its time limit when a part never answers", async () => {
    const db = await databaseThatRefuses();
    try {
      const both = await readinessResponse({ db, store: unreachableStore() });
      expect(both.status).toBe(503);
      expect(await both.json()).toMatchObject({
        database: "unavailable",
        files: "unavailable",
        message: "Database and file store unavailable",
      });
    } finally {
      await db.destroy().catch(() => undefined);
    }
    const started = Date.now();
    const hanging = await readinessResponse(
      { db: getDb(), store: { isReachable: () => new Promise<boolean>(() => {}) } },
      200,
    );
    expect(hanging.status).toBe(503);
    expect(await hanging.json()).toMatchObject({ database: "ok", files: "unavailable" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("a worker process's HTTP front (ROLE=worker)", () => {
  it("answers /healthz and /readyz and 404 for every other path, before any route runs", async () => {
    const reached: string[] = [];
    const app = createHttpApp({
      ties: testTies,
      apiRoutes: API_ROUTES,
      config: { ...getConfig(), ROLE: "worker" },
      publicDir: scratch,
      handle: async (request) => {
        reached.push(new URL(request.url).pathname);
        return Response.json({ status: "ok" });
      },
    });
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${origin}/healthz`)).status).toBe(200);
      expect((await fetch(`${origin}/readyz`)).status).toBe(200);
      for (const pathname of ["/", "/marketplace", "/api/marketplace", "/favicon.ico"]) {
        expect((await fetch(`${origin}${pathname}`)).status, pathname).toBe(404);
      }
      expect(
        (await fetch(`${origin}/api/token-login`, { method: "POST", body: "{}" })).status,
      ).toBe(404);
      expect(reached).toEqual(["/healthz", "/readyz"]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("serves every path in the other roles", async () => {
    for (const role of ["all", "web"] as const) {
      const app = createHttpApp({
        ties: testTies,
        apiRoutes: API_ROUTES,
        config: { ...getConfig(), ROLE: role },
        publicDir: scratch,
        handle: async () => Response.json({ status: "ok" }),
      });
      const server = http.createServer(app);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        expect((await fetch(`${origin}/marketplace`)).status, role).toBe(200);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });
});
