import http from "node:http";
import type { AddressInfo } from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { metrics } from "~/infra/metrics.server";
import { UNEXPECTED_FAILURE_MESSAGE } from "./last-error-handler.server";
import { getConfig, type Config } from "~/infra/config.server";
import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import { createHttpApp } from "~/web/http-app.server";
import type { PageVisit } from "~/web/visitor-page-cache.server";
import { reportRead } from "~/web/render-report.server";
import { testTies } from "#tests/setup/ties";

/**
 * A visitor's cache hit answered by the HTTP front itself (cached-page-front.server.ts),
 * over a real socket: the page rendered once, then served with the headers a
 * render has, its own nonce, a Content-Length, and the render's notes replayed.
 */

let origin = "";
const publicDir = fs.mkdtempSync(path.join(os.tmpdir(), "cached-page-front-"));
let server: http.Server;
const renders: string[] = [];
const replays: { url: string; userAgent: string | null; clientIp?: string }[] = [];

beforeAll(async () => {
  // One proxy in front: what it says of the client (X-Forwarded-*) is believed.
  const config: Config = {
    ...getConfig(),
    PAGE_CACHE_MS: 60_000,
    TRUST_PROXY: { kind: "hops", hops: 1 },
  };
  const app = createHttpApp({
    ties: testTies,
    apiRoutes: API_ROUTES,
    config,
    publicDir,
    handle: async (request, context) => {
      renders.push(new URL(request.url).pathname);
      // What a page's render reports: it looked for a session (a signed one only) and found none.
      reportRead("session", /__session=/.test(request.headers.get("Cookie") ?? ""));
      context.pageNotes = { shownListings: ["listing-1"] };
      const nonce = context.nonce ?? "";
      // A storefront's page is long enough to be compressed (past compression's 1 KB threshold).
      const filler = new URL(request.url).pathname.startsWith("/creators/")
        ? `<p>${"A storefront's listings. ".repeat(100)}</p>`
        : "";
      return new Response(
        `<!doctype html><title>Marketplace</title><script nonce="${nonce}">1</script><p>é</p>${filler}<script nonce="${nonce}">2</script>`,
        { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private" } },
      );
    },
    replayPageNotes: async (notes, visit: PageVisit, context) => {
      if (visit.url.pathname.endsWith("/replay-fails"))
        throw new Error("The view counts' table is locked");
      replays.push({
        url: visit.url.href,
        userAgent: visit.header("User-Agent"),
        clientIp: context.clientIp,
      });
    },
  });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(publicDir, { recursive: true, force: true });
});

const nonceOf = (response: Response) =>
  /'nonce-([^']+)'/.exec(response.headers.get("Content-Security-Policy") ?? "")?.[1];

describe("the cache-hit front", () => {
  it("serves a hit with its own nonce, the render's headers, a Content-Length, and replays the notes", async () => {
    const first = await fetch(`${origin}/marketplace?style=anime`);
    expect(first.headers.get("X-Page-Cache")).toBe("miss");
    const firstBody = await first.text();
    expect(renders).toEqual(["/marketplace"]);

    const hit = await fetch(`${origin}/marketplace?style=anime`, {
      headers: { "User-Agent": "Browser B" },
    });
    const body = await hit.text();
    expect(hit.status).toBe(200);
    expect(hit.headers.get("X-Page-Cache")).toBe("hit");
    expect(hit.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(hit.headers.get("Cache-Control")).toBe("private");
    expect(hit.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(Number(hit.headers.get("Content-Length"))).toBe(Buffer.byteLength(body));
    // Its own nonce, in the CSP and in every script of the page; the copy's is gone.
    const nonce = nonceOf(hit)!;
    expect(nonce).not.toBe(nonceOf(first));
    expect(body).toBe(firstBody.replaceAll(nonceOf(first)!, nonce));
    expect(body.split(`nonce="${nonce}"`)).toHaveLength(3);
    // Not rendered again; what the render did was replayed for this visitor.
    expect(renders).toEqual(["/marketplace"]);
    expect(replays.at(-1)).toMatchObject({
      url: expect.stringMatching(/\/marketplace\?style=anime$/),
      userAgent: "Browser B",
      clientIp: expect.any(String),
    });
  });

  it("gives a replay the visitor's address and URL as the trusted proxy tells them", async () => {
    await (await fetch(`${origin}/marketplace?style=cartoon`)).text();
    const hit = await fetch(`${origin}/marketplace?style=cartoon`, {
      headers: {
        "X-Forwarded-For": "203.0.113.9",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "shop.example",
      },
    });
    expect(hit.headers.get("X-Page-Cache")).toBe("hit");
    await hit.text();
    expect(replays.at(-1)).toMatchObject({
      url: "https://shop.example/marketplace?style=cartoon",
      clientIp: "203.0.113.9",
    });
  });

  it("answers HEAD from the copy without a body, and leaves a signed-in visitor to the render", async () => {
    await (await fetch(`${origin}/training`)).text();
    const rendered = renders.length;
    const head = await fetch(`${origin}/training`, { method: "HEAD" });
    expect(head.headers.get("X-Page-Cache")).toBe("hit");
    expect(await head.text()).toBe("");

    const signedIn = await fetch(`${origin}/training`, {
      headers: { Cookie: "__session=abc" },
    });
    expect(signedIn.headers.get("X-Page-Cache")).toBeNull();
    await signedIn.text();
    expect(renders.length).toBe(rendered + 1);
  });

  it("gives a hit the headers the rendered copy had, compressed as the render was", async () => {
    const miss = await rawGet("/creators/someone", { "Accept-Encoding": "gzip" });
    expect(miss.headers["x-page-cache"]).toBe("miss");
    const hit = await rawGet("/creators/someone", { "Accept-Encoding": "gzip" });
    expect(hit.headers["x-page-cache"]).toBe("hit");
    // The same header names, no more and no fewer (the request id, the nonce and the date differ).
    expect(Object.keys(hit.headers).sort()).toEqual(Object.keys(miss.headers).sort());
    for (const name of [
      "content-encoding",
      "vary",
      "content-type",
      "cache-control",
      "referrer-policy",
    ])
      expect(hit.headers[name], name).toBe(miss.headers[name]);
    expect(hit.headers["content-encoding"]).toBe("gzip");
    expect(hit.headers["x-request-id"]).not.toBe(miss.headers["x-request-id"]);
    const nonce = /'nonce-([^']+)'/.exec(String(hit.headers["content-security-policy"]))![1];
    const missNonce = /'nonce-([^']+)'/.exec(String(miss.headers["content-security-policy"]))![1];
    expect(zlib.gunzipSync(hit.body).toString()).toBe(
      zlib.gunzipSync(miss.body).toString().replaceAll(missNonce!, nonce!),
    );
    // Without an Accept-Encoding the same copy goes out as it is, with its length.
    const plain = await rawGet("/creators/someone", {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(Number(plain.headers["content-length"])).toBe(plain.body.byteLength);
  });

  it("gives a client that accepts no encoding the headers and bytes the render gave it", async () => {
    const miss = await rawGet("/creators/plain", {});
    expect(miss.headers["x-page-cache"]).toBe("miss");
    const hit = await rawGet("/creators/plain", {});
    expect(hit.headers["x-page-cache"]).toBe("hit");
    // The same header names but for the framing: the render streamed (chunked), the copy has its length.
    const names = (headers: http.IncomingHttpHeaders) =>
      Object.keys(headers)
        .filter((name) => name !== "transfer-encoding" && name !== "content-length")
        .sort();
    expect(names(hit.headers)).toEqual(names(miss.headers));
    expect(miss.headers["transfer-encoding"]).toBe("chunked");
    // Compression's Vary, though it encoded nothing: a cache between must not hand this copy to a gzip client.
    expect(hit.headers.vary).toBe("Accept-Encoding");
    expect(hit.headers.vary).toBe(miss.headers.vary);
    expect(hit.headers["content-encoding"]).toBeUndefined();
    expect(Number(hit.headers["content-length"])).toBe(hit.body.byteLength);
    const nonce = /'nonce-([^']+)'/.exec(String(hit.headers["content-security-policy"]))![1];
    const missNonce = /'nonce-([^']+)'/.exec(String(miss.headers["content-security-policy"]))![1];
    expect(hit.body.toString()).toBe(miss.body.toString().replaceAll(missNonce!, nonce!));
    expect(hit.body.toString()).toContain(`<script nonce="${nonce}">2</script>`);
  });

  it("counts a hit in the request metrics under its route family", async () => {
    const count = async () =>
      (await metrics().httpRequests.get()).values.find(
        (v) =>
          v.labels.route === "training" && v.labels.method === "GET" && v.labels.status === "200",
      )?.value ?? 0;
    await (await fetch(`${origin}/training`)).text();
    const before = await count();
    const hit = await fetch(`${origin}/training`);
    expect(hit.headers.get("X-Page-Cache")).toBe("hit");
    await hit.text();
    await vi.waitFor(async () => expect(await count()).toBe(before + 1));
  });

  it("answers a hit whose replay failed with the app's error page, never its stack", async () => {
    await (await fetch(`${origin}/creators/replay-fails`)).text();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const failed = await fetch(`${origin}/creators/replay-fails`);
      expect(failed.status).toBe(500);
      const body = await failed.text();
      expect(body).toContain(UNEXPECTED_FAILURE_MESSAGE);
      expect(body).not.toContain("locked");
      expect(failed.headers.get("X-Request-Id")).toBeTruthy();
      expect(logged).toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it("leaves a path the app looks up as a file to the app's public files, though a copy is fresh", async () => {
    const page = await fetch(`${origin}/marketplace/photo.png`);
    expect(page.headers.get("X-Page-Cache")).toBe("miss");
    await page.text();
    // The file appears while the copy is fresh: the public files answer first, as in the app.
    fs.mkdirSync(path.join(publicDir, "marketplace"), { recursive: true });
    fs.writeFileSync(path.join(publicDir, "marketplace", "photo.png"), "not really a picture");
    const file = await fetch(`${origin}/marketplace/photo.png`);
    expect(file.headers.get("X-Page-Cache")).toBeNull();
    expect(file.headers.get("Content-Type")).toBe("image/png");
    expect(await file.text()).toBe("not really a picture");
  });
});

/** A GET over a plain socket: the headers as sent and the body's bytes as they came (still compressed). */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(`${origin}${path}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ headers: response.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on("error", reject);
  });
}
