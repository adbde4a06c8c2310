import http from "node:http";
import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import type { AddressInfo } from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AppLoadContext } from "@remix-run/node";
import { getConfig } from "~/infra/config.server";
import type { Config, ProxyTrust } from "~/infra/config.server";
import { applyServerTimeouts, createHttpApp } from "./http-app.server";
import { FORM_BODY_LIMIT, UPLOAD_BODY_LIMIT } from "./body-limits.server";
import { testTies } from "#tests/setup/ties";
import { sendRaw, type RawAnswer, type RawRequest } from "#tests/setup/raw-http";

/**
 * The HTTP front over real sockets, with a stand-in for Remix that answers the
 * way routes do: early (before reading the body), or after reading it.
 */

interface Seen {
  calls: number;
  lastBody?: string;
  lastContext?: AppLoadContext;
  lastUrl?: string;
}

let servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
});

async function start(trust: ProxyTrust = { kind: "hops", hops: 0 }, publicDir = os.tmpdir()) {
  const seen: Seen = { calls: 0 };
  const config: Config = { ...getConfig(), TRUST_PROXY: trust };
  const app = createHttpApp({
    ties: testTies,
    apiRoutes: API_ROUTES,
    config,
    publicDir,
    handle: async (request, context) => {
      seen.calls += 1;
      seen.lastContext = context;
      seen.lastUrl = request.url;
      const url = new URL(request.url);
      // A route that fails unexpectedly, its message naming a file on the server.
      if (url.searchParams.has("throw"))
        throw new Error("database locked at /srv/app/secret-module.ts");
      const early = url.searchParams.get("answer");
      // An early answer, as a route gives it before reading: 401 signed out, 415, 413 on a declared size.
      if (early) return Response.json({ message: "early" }, { status: Number(early) });
      try {
        seen.lastBody = request.body ? await request.text() : undefined;
      } catch (error) {
        // As the upload route does: a refusal raised while reading becomes its answer.
        const status = (error as { status?: number }).status;
        if (status) return Response.json({ message: (error as Error).message }, { status });
        throw error;
      }
      return Response.json({ ok: true, bytes: seen.lastBody?.length ?? 0 });
    },
  });
  const server = http.createServer(app);
  applyServerTimeouts(server);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

/** One request on `agent` (POST unless `options.method` says otherwise); see sendRaw. */
function send(port: number, agent: http.Agent, options: RawRequest): Promise<RawAnswer> {
  return sendRaw({ host: "127.0.0.1", port }, agent, { method: "POST", ...options });
}

const multipartHeaders = (length: number) => ({
  "Content-Type": "multipart/form-data; boundary=x",
  "Content-Length": String(length),
});

describe("public files", () => {
  it("serves a file of the public folder with an hour's caching, and hands every path without an extension to the routes", async () => {
    const publicDir = fs.mkdtempSync(path.join(os.tmpdir(), "public-files-"));
    try {
      fs.writeFileSync(path.join(publicDir, "favicon.svg"), "<svg/>");
      // A file named like a page is never served in its place: a page path is not looked up on disk.
      fs.writeFileSync(path.join(publicDir, "marketplace"), "not the page");
      const { port, seen } = await start(undefined, publicDir);
      const agent = new http.Agent();
      const icon = await send(port, agent, { method: "GET", path: "/favicon.svg" });
      expect(icon.status).toBe(200);
      expect(icon.body).toBe("<svg/>");
      expect(icon.headers["cache-control"]).toBe("public, max-age=3600");
      expect(seen.calls).toBe(0);
      const page = await send(port, agent, { method: "GET", path: "/marketplace" });
      expect(JSON.parse(page.body)).toEqual({ ok: true, bytes: 0 });
      expect(seen.calls).toBe(1);
      const missing = await send(port, agent, { method: "GET", path: "/nothing-here.txt" });
      expect(missing.status).toBe(200);
      expect(seen.calls).toBe(2);
      agent.destroy();
    } finally {
      fs.rmSync(publicDir, { recursive: true, force: true });
    }
  });
});

describe("connections after an answer given before the body was read", () => {
  it.each([401, 403, 415])(
    "50 rounds: an 800 KB upload answered %i early, then a request on the same kept-alive client",
    async (status) => {
      const { port } = await start();
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const upload = Buffer.alloc(800 * 1024, 1);
      let reused = 0;
      for (let round = 0; round < 50; round++) {
        const early = await send(port, agent, {
          path: `/api/token-images/upload?answer=${status}`,
          headers: multipartHeaders(upload.length),
          body: upload,
        });
        expect(early.status).toBe(status);
        const next = await send(port, agent, { method: "GET", path: "/api/token-user" });
        expect(next.status).toBe(200);
        if (next.reusedSocket) reused += 1;
      }
      // The body was drained, not the connection dropped: the kept-alive socket served the next request.
      expect(reused).toBe(50);
      agent.destroy();
    },
  );

  it("50 rounds: an upload past the limit answered 413 with Connection: close, then a request from the same client", async () => {
    const { port } = await start();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const tooBig = Buffer.alloc(UPLOAD_BODY_LIMIT + 1024 * 1024, 1);
    for (let round = 0; round < 50; round++) {
      const early = await send(port, agent, {
        path: "/api/token-images/upload?answer=413",
        headers: multipartHeaders(tooBig.length),
        body: tooBig,
      });
      expect(early.status).toBe(413);
      expect(early.headers.connection).toBe("close");
      const next = await send(port, agent, { method: "GET", path: "/api/token-user" });
      expect(next.status).toBe(200);
    }
    agent.destroy();
  });
});

describe("body limits in front of the routes", () => {
  it("refuses a declared form body over 1 MB with 413 before the route runs (JSON on /api, a page elsewhere)", async () => {
    const { port, seen } = await start();
    const agent = new http.Agent({ keepAlive: true });
    const body = Buffer.alloc(FORM_BODY_LIMIT + 1, 97);
    const api = await send(port, agent, {
      path: "/api/token-login",
      headers: { "Content-Type": "application/json" },
      body,
    });
    expect(api.status).toBe(413);
    expect(api.headers["content-type"]).toMatch(/application\/json/);
    expect(JSON.parse(api.body)).toEqual({ message: expect.stringContaining("too large") });
    const page = await send(port, agent, {
      path: "/auth",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(page.status).toBe(413);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain("Request too large");
    expect(seen.calls).toBe(0);
    agent.destroy();
  });

  it("refuses a chunked form body once it passes 1 MB, without reading the rest", async () => {
    const { port, seen } = await start();
    const agent = new http.Agent({ keepAlive: false });
    let sent = 0;
    const answer = await send(port, agent, {
      path: "/auth",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: function* () {
        // Up to 200 MB, stopped by the answer.
        while (sent < 200 * 1024 * 1024) {
          sent += 64 * 1024;
          yield Buffer.alloc(64 * 1024, 97);
        }
      },
    }).catch((error: Error) => ({ status: 0, error }));
    expect(answer.status).toBe(413);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    expect(seen.calls).toBe(0);
    agent.destroy();
  });

  it("hands a form body within the limit to the route, read in full", async () => {
    const { port, seen } = await start();
    const agent = new http.Agent({ keepAlive: true });
    const form = "email=a%40b.c&password=" + "x".repeat(100_000);
    const answer = await send(port, agent, {
      path: "/auth",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: Buffer.from(form),
    });
    expect(answer.status).toBe(200);
    expect(seen.lastBody).toBe(form);
    agent.destroy();
  });

  it("streams an upload within its limit to the route, and a non-multipart body on an upload path is held to 1 MB", async () => {
    const { port, seen } = await start();
    const agent = new http.Agent({ keepAlive: true });
    const upload = Buffer.alloc(5 * 1024 * 1024, 98);
    const ok = await send(port, agent, {
      path: "/dashboard",
      headers: multipartHeaders(upload.length),
      body: upload,
    });
    expect(ok.status).toBe(200);
    expect(seen.lastBody?.length).toBe(upload.length);
    const form = await send(port, agent, {
      path: "/dashboard",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: upload,
    });
    expect(form.status).toBe(413);
    agent.destroy();
  });

  it("fails a chunked upload past its limit with 413 and closes the connection", async () => {
    const { port } = await start();
    const agent = new http.Agent({ keepAlive: true });
    let sent = 0;
    const answer = await send(port, agent, {
      path: "/api/token-images/upload",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
      body: function* () {
        while (sent < 40 * 1024 * 1024) {
          sent += 64 * 1024;
          yield Buffer.alloc(64 * 1024, 99);
        }
      },
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ message: "Please select a file smaller than 10MB." });
    expect(answer.headers.connection).toBe("close");
    agent.destroy();
  });

  it("refuses a cookie-carrying cross-site post with 403 before reading its body; a bearer call is exempt", async () => {
    const { port, seen } = await start();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const body = Buffer.from("intent=delete-image&id=x");
    const form = {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "https://evil.example",
    };
    const refused = await send(port, agent, { path: "/dashboard", headers: form, body });
    expect(refused.status).toBe(403);
    const api = await send(port, agent, {
      path: "/api/token-images",
      headers: { ...form, "Sec-Fetch-Site": "cross-site" },
      body,
    });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.body)).toEqual({ message: "Cross-site request refused" });
    expect(seen.calls).toBe(0);
    const bearer = await send(port, agent, {
      path: "/api/token-images",
      headers: { ...form, Authorization: "Bearer abc" },
      body,
    });
    expect(bearer.status).toBe(200);
    expect(seen.calls).toBe(1);
    agent.destroy();
  });
});

describe("the URL a route sees", () => {
  const urlSeen = async (trust: ProxyTrust, headers: Record<string, string>) => {
    const { port, seen } = await start(trust);
    const agent = new http.Agent();
    await send(port, agent, { method: "GET", path: "/forgot-password", headers });
    agent.destroy();
    return seen.lastUrl;
  };
  const forged = {
    Host: "shop.test:8080",
    "X-Forwarded-Host": "evil.example:4444",
    "X-Forwarded-Proto": "https",
  };

  it("takes host, port and scheme from the request itself when no proxy is trusted: X-Forwarded-* change nothing", async () => {
    expect(await urlSeen({ kind: "hops", hops: 0 }, forged)).toBe(
      "http://shop.test:8080/forgot-password",
    );
    expect(await urlSeen({ kind: "addresses", addresses: ["10.0.0.0/8"] }, forged)).toBe(
      "http://shop.test:8080/forgot-password",
    );
    expect(
      await urlSeen(
        { kind: "hops", hops: 0 },
        { Host: "shop.test", "X-Forwarded-Host": "shop.test:4444" },
      ),
    ).toBe("http://shop.test/forgot-password");
  });

  it("believes X-Forwarded-Host (its port too) and X-Forwarded-Proto from a trusted proxy", async () => {
    expect(await urlSeen({ kind: "hops", hops: 1 }, forged)).toBe(
      "https://evil.example:4444/forgot-password",
    );
    expect(
      await urlSeen(
        { kind: "addresses", addresses: ["127.0.0.1"] },
        { Host: "internal:3000", "X-Forwarded-Host": "selfie.example" },
      ),
    ).toBe("http://selfie.example/forgot-password");
  });
});

describe("the client address", () => {
  const ask = async (trust: ProxyTrust, headers: Record<string, string>) => {
    const { port, seen } = await start(trust);
    const agent = new http.Agent();
    await send(port, agent, { method: "GET", path: "/", headers });
    agent.destroy();
    return seen.lastContext?.clientIp;
  };

  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For says", async () => {
    expect(await ask({ kind: "hops", hops: 0 }, { "X-Forwarded-For": "203.0.113.9" })).toBe(
      "127.0.0.1",
    );
  });

  it("with one proxy, is the address that proxy appended: a forged left-most entry changes nothing", async () => {
    expect(await ask({ kind: "hops", hops: 1 }, { "X-Forwarded-For": "198.51.100.7" })).toBe(
      "198.51.100.7",
    );
    expect(
      await ask({ kind: "hops", hops: 1 }, { "X-Forwarded-For": "10.9.9.9, 198.51.100.7" }),
    ).toBe("198.51.100.7");
    expect(
      await ask({ kind: "hops", hops: 1 }, { "X-Forwarded-For": "1.1.1.1, 2.2.2.2, 198.51.100.7" }),
    ).toBe("198.51.100.7");
  });

  it("believes only entries appended by the listed proxy addresses", async () => {
    expect(
      await ask(
        { kind: "addresses", addresses: ["127.0.0.1"] },
        { "X-Forwarded-For": "6.6.6.6, 198.51.100.7" },
      ),
    ).toBe("198.51.100.7");
    expect(
      await ask(
        { kind: "addresses", addresses: ["10.0.0.0/8"] },
        { "X-Forwarded-For": "198.51.100.7" },
      ),
    ).toBe("127.0.0.1");
  });

  it("on Fly, is Fly-Client-IP", async () => {
    expect(
      await ask(
        { kind: "fly" },
        { "Fly-Client-IP": "198.51.100.8", "X-Forwarded-For": "6.6.6.6, 198.51.100.8" },
      ),
    ).toBe("198.51.100.8");
  });

  it("is an IPv6 client's /64 network, so one network's many addresses count as one client (also on Fly)", async () => {
    expect(
      await ask(
        { kind: "hops", hops: 1 },
        { "X-Forwarded-For": "2001:db8:1:2:aaaa:bbbb:cccc:dddd" },
      ),
    ).toBe("2001:db8:1:2::/64");
    expect(await ask({ kind: "hops", hops: 1 }, { "X-Forwarded-For": "2001:db8:1:2::7" })).toBe(
      "2001:db8:1:2::/64",
    );
    expect(await ask({ kind: "fly" }, { "Fly-Client-IP": "2001:db8:1:2::8" })).toBe(
      "2001:db8:1:2::/64",
    );
    expect(await ask({ kind: "fly" }, { "Fly-Client-IP": "::ffff:198.51.100.8" })).toBe(
      "198.51.100.8",
    );
  });
});

describe("methods the app does not serve, and failures nobody answered", () => {
  const ALLOWED = "GET, HEAD, POST, PUT, PATCH, DELETE";

  it.each(["TRACE", "PROPFIND", "MKCOL", "OPTIONS"])(
    "%s answers 405 with Allow: JSON on /api, a short page elsewhere; the route never runs",
    async (method) => {
      const { port, seen } = await start();
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const api = await send(port, agent, { method, path: "/api/token-user" });
      expect(api.status).toBe(405);
      expect(api.headers.allow).toBe(ALLOWED);
      expect(api.headers["content-type"]).toMatch(/application\/json/);
      expect(JSON.parse(api.body)).toEqual({ message: "Method not allowed" });
      const page = await send(port, agent, { method, path: "/marketplace" });
      expect(page.status).toBe(405);
      expect(page.headers.allow).toBe(ALLOWED);
      expect(page.headers["content-type"]).toMatch(/text\/html/);
      expect(page.body).toContain("Method not allowed");
      expect(page.body).not.toMatch(/at |node_modules|\.ts\b|\.js\b/);
      expect(seen.calls).toBe(0);
      // The connection stays usable.
      expect((await send(port, agent, { method: "GET", path: "/api/token-user" })).status).toBe(
        200,
      );
      agent.destroy();
    },
  );

  it("a failure no route answered is a 500 without a stack or a file path (JSON on /api); the stack goes to the log", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const { port } = await start();
    const agent = new http.Agent();
    const api = await send(port, agent, { method: "GET", path: "/api/token-user?throw=1" });
    expect(api.status).toBe(500);
    expect(api.headers["content-type"]).toMatch(/application\/json/);
    expect(JSON.parse(api.body)).toEqual({
      message: "Something went wrong on our side. Please try again.",
    });
    const page = await send(port, agent, { method: "GET", path: "/dashboard?throw=1" });
    expect(page.status).toBe(500);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    for (const body of [api.body, page.body]) {
      expect(body).not.toContain("secret-module");
      expect(body).not.toContain("database locked");
      expect(body).not.toMatch(/\bat \S+ \(|node_modules/);
    }
    const lines = logged.mock.calls.map((args) =>
      args.map((arg) => (arg instanceof Error ? arg.stack : String(arg))).join(" "),
    );
    expect(
      lines.some(
        (line) => line.includes("GET /api/token-user") && line.includes("secret-module.ts"),
      ),
    ).toBe(true);
    agent.destroy();
  });
});
