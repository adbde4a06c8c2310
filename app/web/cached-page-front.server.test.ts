import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
let server: http.Server;
const renders: string[] = [];
const replays: { url: string; userAgent: string | null; clientIp?: string }[] = [];

beforeAll(async () => {
  const config: Config = { ...getConfig(), PAGE_CACHE_MS: 60_000 };
  const app = createHttpApp({
    ties: testTies,
    apiRoutes: API_ROUTES,
    config,
    publicDir: os.tmpdir(),
    handle: async (request, context) => {
      renders.push(new URL(request.url).pathname);
      // What a page's render reports: it looked for a session (a signed one only) and found none.
      reportRead("session", /__session=/.test(request.headers.get("Cookie") ?? ""));
      context.pageNotes = { shownListings: ["listing-1"] };
      const nonce = context.nonce ?? "";
      return new Response(
        `<!doctype html><title>Marketplace</title><script nonce="${nonce}">1</script><p>é</p><script nonce="${nonce}">2</script>`,
        { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private" } },
      );
    },
    replayPageNotes: async (notes, visit: PageVisit, context) => {
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
});
