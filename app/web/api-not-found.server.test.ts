import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import type { ServerBuild } from "@remix-run/node";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getConfig } from "~/infra/config.server";
import { Logger, setLogger } from "~/infra/logger.server";
import * as apiSplatRoute from "~/routes/api+/$";
import { handleError } from "~/entry.server";
import { createHttpApp } from "./http-app.server";
import { testTies } from "#tests/setup/ties";
import { sendRaw } from "#tests/setup/raw-http";

/**
 * Unmatched /api paths over a real socket, through the real HTTP front and
 * Remix's own server runtime and route matching: the app's /api splat route
 * (the real route table behind it), a catch-all page route and a root, as the
 * app's route tree has them, with the app's own handleError. Whatever an /api
 * path holds once decoded (a line break, U+2028, NUL, a broken or overlong
 * escape, a very long segment), the answer is the JSON 404, and nothing is
 * logged as an error (no stack trace to flood the log with).
 */

/** The smallest server build Remix serves: a root, the /api splat route and the catch-all 404 page route. */
function remixBuild(): ServerBuild {
  const page = () => null;
  return {
    mode: "production",
    entry: {
      module: {
        // The document: the status Remix chose, as a small HTML page.
        default: (_request: Request, status: number, headers: Headers) => {
          headers.set("Content-Type", "text/html; charset=utf-8");
          return new Response("<!DOCTYPE html><title>Page Not Found</title>", { status, headers });
        },
        handleError,
      },
    },
    routes: {
      root: { id: "root", path: "", module: { default: page } },
      "routes/api+/$": {
        id: "routes/api+/$",
        parentId: "root",
        path: "api/*",
        module: { loader: apiSplatRoute.loader, action: apiSplatRoute.action },
      },
      "routes/$": {
        id: "routes/$",
        parentId: "root",
        path: "*",
        module: {
          loader: () => {
            throw new Response("Not Found", { status: 404 });
          },
          default: page,
          ErrorBoundary: page,
        },
      },
    },
    assets: {
      entry: { module: "/build/entry.client.js", imports: [] },
      routes: {},
      url: "/build/manifest.js",
      version: "test",
    },
    publicPath: "/build/",
    assetsBuildDirectory: os.tmpdir(),
    future: {},
    isSpaMode: false,
  } as unknown as ServerBuild;
}

let server: http.Server | undefined;
let logged: { level: string; line: string }[] = [];
beforeEach(() => {
  logged = [];
  setLogger(new Logger("json", (line, level) => logged.push({ level, line })));
});
afterEach(async () => {
  setLogger(undefined);
  vi.restoreAllMocks();
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

async function start(): Promise<number> {
  const app = createHttpApp({
    ties: testTies,
    config: getConfig(),
    publicDir: os.tmpdir(),
    build: remixBuild(),
  });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** A GET of `rawPath` as written (no client normalizes it). */
async function get(port: number, rawPath: string) {
  const answer = await sendRaw({ host: "127.0.0.1", port }, undefined, { path: rawPath });
  return {
    status: answer.status,
    type: String(answer.headers["content-type"] ?? ""),
    body: answer.body,
  };
}

const UNMATCHED_API_PATHS = [
  "/api/token-images/%0A",
  "/api/token-images/%0D",
  "/api/token-images/%0D%0A/stylize",
  "/api/token-images/%E2%80%A8",
  "/api/token-images/%E2%80%A9",
  "/api/%0A",
  "/API/made-up%0Apath",
  "/api/no-such-thing/%00",
  "/api/token-images/%00/nothing-here",
  "/api/token-images/%C0%AF/nothing-here",
  "/api/token-images/%E0%80%AF/x",
  "/api/token-images/%ZZ/x",
  `/api/token-images/${"%0A".repeat(2000)}`,
  `/api/${"a".repeat(6000)}/x`,
];

describe("an /api path no endpoint has", () => {
  it("answers the JSON 404 whatever it holds once decoded, and logs no error", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    const port = await start();
    const wrong: string[] = [];
    for (const rawPath of UNMATCHED_API_PATHS) {
      const answer = await get(port, rawPath);
      if (
        answer.status !== 404 ||
        !answer.type.startsWith("application/json") ||
        answer.body !== JSON.stringify({ message: "Not found" })
      )
        wrong.push(`${rawPath.slice(0, 60)}: ${answer.status} ${answer.type}`);
    }
    expect(wrong).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    expect(warnings).not.toHaveBeenCalled();
    expect(logged.filter(({ level }) => level === "error" || level === "warn")).toEqual([]);
  });

  it("answers a known path holding such a character as its endpoint does: JSON", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const port = await start();
    // GET /api/token-images/{id} without credentials: the endpoint's own 401, in JSON.
    const answer = await get(port, "/api/token-images/abc%00def");
    expect(answer.type).toMatch(/^application\/json/);
    expect(answer.status).toBeLessThan(500);
    expect(errors).not.toHaveBeenCalled();
  });

  it("a page path with a line break gets the HTML 404 page, without an error logged", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const port = await start();
    const answer = await get(port, "/listings/%0A");
    expect(answer.status).toBe(404);
    expect(answer.type).toMatch(/^text\/html/);
    expect(errors).not.toHaveBeenCalled();
    expect(logged.filter(({ level }) => level === "error")).toEqual([]);
  });
});
