import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import type { HandleRequest } from "./remix-handler.server";
import { cacheKey, visitorPageCache } from "./visitor-page-cache.server";

const PAGES = { "/": [], "/marketplace": ["style", "q", "cursor", "listing"] } as const;

/** A page renderer that says how often it ran and puts its nonce and a counter in the page. */
function renderer(options: { headers?: Record<string, string>; status?: number; delayMs?: number } = {}) {
  let renders = 0;
  const handle: HandleRequest = async (request, context) => {
    renders += 1;
    const n = renders;
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (context.pageNotes) context.pageNotes.shownListings = ["l1", "l2"];
    const nonce = context.nonce ?? "";
    return new Response(
      `<html><script nonce="${nonce}">1</script><p>render ${n} of ${new URL(request.url).pathname}</p><script nonce="${nonce}">2</script></html>`,
      {
        status: options.status ?? 200,
        headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-cache", ...options.headers },
      },
    );
  };
  return { handle, renders: () => renders };
}

let nonces = 0;
const context = (): AppLoadContext => ({ nonce: `nonce-${++nonces}-abcdefghijklmnop`, clientIp: "203.0.113.9" });
const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  new Request(`http://shop.test${path}`, { method, headers });

describe("the visitors' page cache", () => {
  it("serves a visitor's page to the next visitor for the time given, with that response's own nonce", async () => {
    let clock = 1_000;
    const page = renderer();
    const replay = vi.fn(async (_notes: unknown) => {});
    const cached = visitorPageCache(page.handle, { ttlMs: 1000, pages: PAGES, replay, now: () => clock });

    const first = context();
    const a = await (await cached(get("/marketplace?style=anime"), first)).text();
    const second = context();
    const response = await cached(get("/marketplace?style=anime"), second);
    const b = await response.text();

    expect(page.renders()).toBe(1);
    expect(b).toContain("render 1 of /marketplace");
    expect(a).toContain(`nonce="${first.nonce}"`);
    expect(b).not.toContain(first.nonce);
    expect(b.split(`nonce="${second.nonce}"`)).toHaveLength(3);
    expect(response.headers.get("Content-Type")).toMatch(/text\/html/);
    expect(response.headers.get("X-Page-Cache")).toBe("hit");
    expect(replay).toHaveBeenCalledTimes(1);
    expect(replay.mock.calls[0]?.[0]).toEqual({ shownListings: ["l1", "l2"] });

    clock += 1000;
    expect(await (await cached(get("/marketplace?style=anime"), context())).text()).toContain("render 2");
    expect(page.renders()).toBe(2);
  });

  it("serves a copy byte for byte, only the nonce changed: text beside it in other scripts, at its ends and in many languages", async () => {
    const handle: HandleRequest = async (_request, ctx) => {
      const nonce = ctx.nonce ?? "";
      return new Response(
        `${nonce}<p>Café — 写真 📸 ${nonce}${nonce}</p><script nonce="${nonce}">"naïve"</script>${nonce}`,
        { headers: { "Content-Type": "text/html; charset=utf-8" } },
      );
    };
    const cached = visitorPageCache(handle, { ttlMs: 1000, pages: PAGES, now: () => 0 });
    const page = (nonce: string) =>
      `${nonce}<p>Café — 写真 📸 ${nonce}${nonce}</p><script nonce="${nonce}">"naïve"</script>${nonce}`;
    const first = context();
    expect(await (await cached(get("/"), first)).text()).toBe(page(first.nonce ?? ""));
    const second = context();
    const hit = await cached(get("/"), second);
    expect(hit.headers.get("X-Page-Cache")).toBe("hit");
    expect(await hit.text()).toBe(page(second.nonce ?? ""));
    // A context without a nonce (never the case behind the security headers) gets the page without one.
    expect(await (await cached(get("/"), { clientIp: "203.0.113.9" })).text()).toBe(page(""));
  });

  it("keeps one copy per path and listed query, and none for other paths", async () => {
    const page = renderer();
    const cached = visitorPageCache(page.handle, { ttlMs: 1000, pages: PAGES });
    for (const path of ["/", "/marketplace", "/marketplace?style=anime", "/marketplace?q=cat", "/", "/marketplace?q=cat"]) {
      await (await cached(get(path), context())).text();
    }
    expect(page.renders()).toBe(4);
    await cached(get("/dashboard"), context());
    await cached(get("/dashboard"), context());
    expect(page.renders()).toBe(6);
  });

  it("never serves or keeps a page for anyone with a cookie of the app's, a token, or a parameter the page does not list", async () => {
    const page = renderer();
    const cached = visitorPageCache(page.handle, { ttlMs: 60_000, pages: PAGES });
    await (await cached(get("/marketplace"), context())).text();
    const personal = [
      get("/marketplace", { Cookie: "__session=abc" }),
      get("/marketplace", { Cookie: "theme=dark; __Host-session=abc" }),
      get("/marketplace", { Cookie: "__cart=xyz" }),
      get("/marketplace", { Cookie: "__Host-flash=msg" }),
      get("/marketplace", { Authorization: "Bearer t" }),
      get("/marketplace?session_id=cs_1&success=true"),
      get("/marketplace?checkout=cancelled"),
      get("/marketplace?_data=routes%2F_market%2B%2Fmarketplace"),
    ];
    for (const request of personal) {
      expect(cacheKey(request, PAGES)).toBeNull();
      expect(await (await cached(request, context())).text()).not.toContain("render 1 ");
    }
    expect(page.renders()).toBe(1 + personal.length);
    // A cookie that is not the app's (say, a proxy's) does not make a page personal.
    expect(cacheKey(get("/marketplace", { Cookie: "lb=node2" }), PAGES)).toBe("/marketplace");
  });

  it("keeps only a plain 200 HTML page that sets no cookie and allows storing", async () => {
    const cases: { headers?: Record<string, string>; status?: number }[] = [
      { headers: { "Set-Cookie": "__cart=; Max-Age=0" } },
      { status: 404 },
      { headers: { "Cache-Control": "private, no-store" } },
      { headers: { "Content-Type": "application/json" } },
    ];
    for (const options of cases) {
      const page = renderer(options);
      const cached = visitorPageCache(page.handle, { ttlMs: 60_000, pages: PAGES });
      await cached(get("/"), context());
      await cached(get("/"), context());
      expect(page.renders()).toBe(2);
    }
  });

  it("empties on any request that may change data", async () => {
    const page = renderer();
    const cached = visitorPageCache(page.handle, { ttlMs: 60_000, pages: PAGES });
    await cached(get("/"), context());
    await cached(get("/"), context());
    expect(page.renders()).toBe(1);
    await cached(get("/cart", {}, "POST"), context());
    expect(cached.size).toBe(0);
    await cached(get("/"), context());
    expect(page.renders()).toBe(3);
  });

  it("renders a page once for concurrent visitors, each getting its own nonce", async () => {
    const page = renderer({ delayMs: 20 });
    const cached = visitorPageCache(page.handle, { ttlMs: 60_000, pages: PAGES });
    const contexts = Array.from({ length: 10 }, context);
    const bodies = await Promise.all(contexts.map(async (ctx) => (await cached(get("/"), ctx)).text()));
    expect(page.renders()).toBe(1);
    bodies.forEach((body, i) => {
      expect(body).toContain(`nonce="${contexts[i]?.nonce}"`);
      contexts.forEach((other, j) => {
        if (j !== i) expect(body).not.toContain(other.nonce);
      });
    });
  });

  it("holds at most maxEntries copies, dropping the oldest", async () => {
    const page = renderer();
    const cached = visitorPageCache(page.handle, { ttlMs: 60_000, pages: PAGES, maxEntries: 3 });
    for (const q of ["a", "b", "c", "d"]) await cached(get(`/marketplace?q=${q}`), context());
    expect(cached.size).toBe(3);
    await cached(get("/marketplace?q=a"), context());
    expect(page.renders()).toBe(5);
  });

  it("answers HEAD from a copy without a body, and is off at ttlMs 0", async () => {
    const page = renderer();
    const cached = visitorPageCache(page.handle, { ttlMs: 60_000, pages: PAGES });
    await cached(get("/"), context());
    const head = await cached(get("/", {}, "HEAD"), context());
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(page.renders()).toBe(1);

    const off = renderer();
    const uncached = visitorPageCache(off.handle, { ttlMs: 0, pages: PAGES });
    await uncached(get("/"), context());
    await uncached(get("/"), context());
    expect(off.renders()).toBe(2);
  });
});
