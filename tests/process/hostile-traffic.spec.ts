import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  ROOT,
  PROCESS_ADMIN,
  startRefused,
  startServer,
  type RunningServer,
} from "./support/server-process";
import { sendRaw, type RawAnswer, type RawRequest } from "../setup/raw-http";

/**
 * The production server under hostile and unlucky traffic, over real sockets:
 * early answers leave kept-alive connections usable, bodies are bounded before
 * they are buffered, redirect targets stay on the site, a forged
 * X-Forwarded-For does not move the sign-in throttle, and a production start
 * without a payment provider is refused.
 */
const scratch = path.join(ROOT, "tests", ".tmp", "process-hostile");
const portrait = fs.readFileSync(path.join(ROOT, "tests/fixtures/portrait.png"));

/** One request through `agent` (a kept-alive client) as from the site's own pages, resolving with the whole answer. */
function request(
  server: RunningServer,
  agent: http.Agent,
  options: RawRequest,
): Promise<RawAnswer> {
  const url = new URL(server.origin);
  return sendRaw({ host: url.hostname, port: url.port }, agent, {
    ...options,
    headers: { Origin: server.origin, ...options.headers },
  });
}

function multipart(
  file: Buffer,
  type = "image/png",
): { body: Buffer; headers: Record<string, string> } {
  const boundary = "----selfie-process-test";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="upload.png"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    body,
    headers: {
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": String(body.length),
    },
  };
}

async function adminToken(server: RunningServer): Promise<string> {
  const login = await server.fetch("/api/token-login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(PROCESS_ADMIN),
  });
  expect(login.status).toBe(200);
  return ((await login.json()) as { token: string }).token;
}

/** The server's resident memory, in MB, from /proc. */
function residentMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? "0") / 1024;
}

test.describe.configure({ mode: "serial" });

test.describe("one production server", () => {
  let server: RunningServer;
  let token: string;

  test.beforeAll(async () => {
    fs.rmSync(path.join(scratch, "main"), { recursive: true, force: true });
    server = await startServer({ dataDir: path.join(scratch, "main"), port: 3640 });
    token = await adminToken(server);
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  for (const [status, what] of [
    [401, "an 800 KB upload without signing in"],
    [413, "an 11 MB upload"],
    [415, "an 800 KB upload that is not an image"],
  ] as const) {
    test(`50 rounds: ${what} answered ${status}, then a signed-in request from the same kept-alive client`, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const file =
        status === 413
          ? Buffer.alloc(11 * 1024 * 1024, 7)
          : status === 415
            ? Buffer.alloc(portrait.length, 120)
            : portrait;
      const upload = multipart(file);
      const auth: Record<string, string> =
        status === 401 ? {} : { Authorization: `Bearer ${token}` };
      for (let round = 0; round < 50; round++) {
        const early = await request(server, agent, {
          method: "POST",
          path: "/api/token-images/upload",
          headers: { ...upload.headers, ...auth },
          body: upload.body,
        });
        expect(early.status, early.body).toBe(status);
        expect(early.headers["content-type"]).toMatch(/application\/json/);
        const next = await request(server, agent, {
          path: "/api/token-user",
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(next.status, next.body).toBe(200);
      }
      agent.destroy();
      expect(server.output()).not.toMatch(/ECONNRESET|Unexpected error/);
    });
  }

  test("a 200 MB form post to /auth is answered 413 before it is read, and memory stays flat", async () => {
    const agent = new http.Agent({ keepAlive: true });
    const before = residentMb(server.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, residentMb(server.pid))), 10);
    let sent = 0;
    const started = Date.now();
    const total = 200 * 1024 * 1024;
    try {
      for (const declared of [true, false]) {
        sent = 0;
        const answer = await request(server, agent, {
          method: "POST",
          path: "/auth",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            ...(declared ? { "Content-Length": String(total) } : {}),
          },
          body: function* () {
            const chunk = Buffer.alloc(256 * 1024, 97);
            while (sent < total) {
              sent += chunk.length;
              yield chunk;
            }
          },
        });
        expect(answer.status).toBe(413);
        expect(answer.headers.connection).toBe("close");
        expect(answer.body).toContain("Request too large");
        // The answer came while most of the body was still unsent: the server did not wait for it.
        expect(sent).toBeLessThan(total / 2);
      }
    } finally {
      clearInterval(sampler);
      agent.destroy();
    }
    console.log(
      `200 MB posts to /auth: answered in ${Date.now() - started} ms for both; server RSS ${before.toFixed(0)} -> peak ${peak.toFixed(0)} MB`,
    );
    expect(peak - before).toBeLessThan(30);
  });

  test("redirect targets from the request stay on the site", async () => {
    for (const target of [
      "/.//evil.com",
      "/%2e//evil.com",
      "/a/..//evil.com",
      "/\\evil.com",
      "//evil.com",
      "https://evil.com",
    ]) {
      const entry = await server.fetch(`/api/login?redirectTo=${encodeURIComponent(target)}`, {
        redirect: "manual",
      });
      expect(entry.headers.get("location"), target).toBe("/auth");
      const signIn = await server.fetch(`/auth?redirectTo=${encodeURIComponent(target)}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          intent: "login",
          email: PROCESS_ADMIN.email,
          password: PROCESS_ADMIN.password,
          redirectTo: target,
        }),
        redirect: "manual",
      });
      expect(signIn.status, target).toBe(302);
      // The super admin's own landing, never the target.
      expect(signIn.headers.get("location"), target).toBe("/admin");
    }
  });
});

test("behind one proxy, a forged X-Forwarded-For does not move the sign-in throttle", async () => {
  fs.rmSync(path.join(scratch, "proxy"), { recursive: true, force: true });
  const server = await startServer({
    dataDir: path.join(scratch, "proxy"),
    port: 3641,
    env: { TRUST_PROXY: "1" },
  });
  try {
    const attempt = (i: number, client: string) =>
      server.fetch("/api/token-login", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          // The left-most entry is the client's own invention; the proxy appends the address it saw.
          "X-Forwarded-For": `10.${i % 250}.${(i * 7) % 250}.${(i * 13) % 250}, ${client}`,
        },
        body: JSON.stringify({ email: `nobody-${i}@example.com`, password: "wrong-password" }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await attempt(i, "198.51.100.7")).status);
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(20).every((status) => status === 429)).toBe(true);
    // Another client behind the same proxy is not held by the first one's failures.
    expect((await attempt(99, "198.51.100.8")).status).toBe(401);
  } finally {
    await server.stop();
  }
});

test("a production start without Stripe is refused, naming ALLOW_TEST_CHECKOUT", async () => {
  const { code, output } = await startRefused({
    dataDir: path.join(scratch, "refused"),
    port: 3642,
  });
  expect(code).toBe(1);
  expect(output).toContain("STRIPE_SECRET_KEY");
  expect(output).toContain("ALLOW_TEST_CHECKOUT=true");
  expect(output).not.toContain("is serving");
});
