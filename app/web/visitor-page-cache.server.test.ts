import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { getConfig } from "~/infra/config.server";
import { createSessionCookie, readSessionSecret } from "./auth.server";
import { reportRead } from "./render-report.server";
import type { HandleRequest } from "./remix-handler.server";
import { cacheKey, visitorPageCache } from "./visitor-page-cache.server";
import { testTies } from "#tests/setup/ties";

const PAGES = { "/": [], "/marketplace": ["style", "q", "cursor", "listing"] } as const;

/**
 * A page renderer that says how often it ran and puts its nonce and a counter
 * in the page. Like the root route, it asks who is signed in (the real session
 * reader) and shows the session it found.
 */
function renderer(
  options: { headers?: Record<string, string>; status?: number; delayMs?: number } = {},
) {
  let renders = 0;
  const handle: HandleRequest = async (request, context) => {
    renders += 1;
    const n = renders;
    const secret = await readSessionSecret(request);
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (context.pageNotes) context.pageNotes.shownListings = ["l1", "l2"];
    const nonce = context.nonce ?? "";
    return new Response(
      `<html><script nonce="${nonce}">1</script><p>render ${n} of ${new URL(request.url).pathname}</p>${secret ? `<p>signed in as ${secret}</p>` : ""}<script nonce="${nonce}">2</script></html>`,
      {
        status: options.status ?? 200,
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Cache-Control": "private, no-cache",
          ...options.headers,
        },
      },
    );
  };
  return { handle, renders: () => renders };
}

let nonces = 0;
const context = (): AppLoadContext => ({
  nonce: `nonce-${++nonces}-abcdefghijklmnop`,
  clientIp: "203.0.113.9",
  ties: testTies,
});
const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  new Request(`http://shop.test${path}`, { method, headers });

describe("the visitors' page cache", () => {
  it("serves a visitor's page to the next visitor for the time given, with that response's own nonce", async () => {
    let clock = 1_000;
    const page = renderer();
    const replay = vi.fn(async (_notes: unknown) => {});
    const cached = visitorPageCache(page.handle, {
      ttlMs: 1000,
      pages: PAGES,
      replay,
      now: () => clock,
    });

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
    expect(await (await cached(get("/marketplace?style=anime"), context())).text()).toContain(
      "render 2",
    );
    expect(page.renders()).toBe(2);
  });

  it("serves a copy byte for byte, only the nonce changed: text beside it in other scripts, at its ends and in many languages", async () => {
    const handle: HandleRequest = async (request, ctx) => {
      await readSessionSecret(request);
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
    expect(await (await cached(get("/"), { ties: testTies, clientIp: "203.0.113.9" })).text()).toBe(
      page(""),
    );
  });

  it("keeps one copy per path and listed query, and none for other paths", async () => {
    const page = renderer();
    const cached = visitorPageCache(page.handle, { ttlMs: 1000, pages: PAGES });
    for (const path of [
      "/",
      "/marketplace",
      "/marketplace?style=anime",
      "/marketplace?q=cat",
      "/",
      "/marketplace?q=cat",
    ]) {
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
    const bodies = await Promise.all(
      contexts.map(async (ctx) => (await cached(get("/"), ctx)).text()),
    );
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

  it("holds at most maxBytes of pages and headers together, dropping the oldest, and counts none once emptied", async () => {
    const page = renderer();
    const probe = visitorPageCache(page.handle, { ttlMs: 60_000, pages: PAGES });
    await probe(get("/marketplace?q=a"), context());
    const one = probe.bytes;
    expect(one).toBeGreaterThan(200);
    // Room for two copies of this size, not three.
    const cached = visitorPageCache(page.handle, {
      ttlMs: 60_000,
      pages: PAGES,
      maxBytes: Math.floor(one * 2.5),
    });
    for (const q of ["a", "b", "c"]) await cached(get(`/marketplace?q=${q}`), context());
    expect(cached.size).toBe(2);
    expect(cached.bytes).toBeLessThanOrEqual(Math.floor(one * 2.5));
    const renders = page.renders();
    await cached(get("/marketplace?q=c"), context());
    expect(page.renders()).toBe(renders);
    await cached(get("/marketplace?q=a"), context());
    expect(page.renders()).toBe(renders + 1);
    await cached(get("/marketplace", {}, "POST"), context());
    expect([cached.size, cached.bytes]).toEqual([0, 0]);
  });

  it("never keeps a page larger than maxBytes", async () => {
    const page = renderer();
    const cached = visitorPageCache(page.handle, { ttlMs: 60_000, pages: PAGES, maxBytes: 100 });
    const response = await cached(get("/marketplace"), context());
    expect(response.status).toBe(200);
    expect([cached.size, cached.bytes]).toEqual([0, 0]);
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

  describe("a signed-in page is never kept, however the session cookie is written", () => {
    /** `name=value` of a real signed session cookie for `secret`, under the test server's name or production's. */
    async function sessionPair(secret: string, production = false): Promise<[string, string]> {
      const cookie = createSessionCookie({ ...getConfig(), isProduction: production });
      const pair = (await cookie.serialize(secret)).split(";")[0]!;
      const at = pair.indexOf("=");
      return [pair.slice(0, at), pair.slice(at + 1)];
    }

    /** The forms a browser never sends but a client may, each read as a session by the session's own parser (or not at all). */
    async function cookieForms(production: boolean) {
      const [name, value] = await sessionPair("ann-secret", production);
      const mixedCase = name.toUpperCase();
      return [
        `${name} =${value}`,
        `${name}\t=${value}`,
        `${name}  \t =${value}`,
        `theme=dark; ${name} =${value}`,
        `theme=dark;${name}\t=${value}`,
        `${mixedCase} =${value}`,
        `${name}=${value}; ${name}=junk`,
        `${name}=junk; ${name} =${value}`,
        `${name} =${value}; ${name}=${value}`,
      ];
    }

    it.each([
      ["__session (the name outside production)", false],
      ["__Host-session (production's name)", true],
    ])("with %s", async (_label, production) => {
      // The renderer reads the session with the same parser the cookie of this name uses.
      const read = createSessionCookie({ ...getConfig(), isProduction: production });
      let renders = 0;
      const handle: HandleRequest = async (request) => {
        renders += 1;
        const value = await read.parse(request.headers.get("Cookie"));
        const secret = typeof value === "string" && value ? value : null;
        reportRead("session", secret !== null);
        return new Response(
          `<p>render ${renders}</p>${secret ? `<p>signed in as ${secret}</p>` : ""}`,
          {
            headers: { "Content-Type": "text/html; charset=utf-8" },
          },
        );
      };
      for (const form of await cookieForms(production)) {
        const cached = visitorPageCache(handle, { ttlMs: 60_000, pages: PAGES });
        const personal = await cached(get("/", { Cookie: form }), context());
        await personal.text();
        expect(cacheKey(get("/", { Cookie: form }), PAGES), form).toBeNull();
        expect(personal.headers.get("X-Page-Cache"), form).toBeNull();
        const visitor = await (await cached(get("/"), context())).text();
        expect(visitor, form).not.toContain("signed in");
        expect(cached.size, form).toBe(1);
      }
    });

    it("with the real session reader: a session cookie with a blank before '=' signs in and is never kept", async () => {
      const [name, value] = await sessionPair("bob-secret");
      const page = renderer();
      const cached = visitorPageCache(page.handle, { ttlMs: 60_000, pages: PAGES });
      const personal = await (
        await cached(get("/marketplace", { Cookie: `${name} =${value}` }), context())
      ).text();
      expect(personal).toContain("signed in as bob-secret");
      const visitor = await (await cached(get("/marketplace"), context())).text();
      expect(visitor).not.toContain("bob-secret");
    });
  });

  describe("a copy is kept only when its render reports that nobody was signed in", () => {
    const page =
      (report: () => void): HandleRequest =>
      async () => {
        report();
        return new Response("<p>page</p>", {
          headers: { "Content-Type": "text/html; charset=utf-8" },
        });
      };

    it.each([
      ["found a session", () => reportRead("session", true)],
      ["found a cart", () => (reportRead("session", false), reportRead("cart", true))],
      ["found saved listings", () => (reportRead("session", false), reportRead("saved", true))],
      ["found a flash message", () => (reportRead("session", false), reportRead("flash", true))],
      ["never asked who is signed in", () => reportRead("cart", false)],
    ])(
      "a render that %s is not kept, even for a request that looks like a visitor's",
      async (_label, report) => {
        const cached = visitorPageCache(page(report), { ttlMs: 60_000, pages: PAGES });
        await (await cached(get("/"), context())).text();
        expect(cached.size).toBe(0);
        // Rendered again, and neither served from a copy nor kept.
        const again = await cached(get("/"), context());
        expect(again.headers.get("X-Page-Cache")).toBeNull();
        expect(cached.size).toBe(0);
      },
    );

    it("a render that looked for a session, a cart, saved listings and a flash message and found none is kept", async () => {
      const cached = visitorPageCache(
        page(
          () => (
            reportRead("session", false),
            reportRead("cart", false),
            reportRead("saved", false),
            reportRead("flash", false)
          ),
        ),
        { ttlMs: 60_000, pages: PAGES },
      );
      await (await cached(get("/"), context())).text();
      expect(cached.size).toBe(1);
      expect((await cached(get("/"), context())).headers.get("X-Page-Cache")).toBe("hit");
    });
  });

  describe("public JSON answers", () => {
    const ANSWERS = { "/api/marketplace": ["style", "cursor", "limit", "listing"] } as const;
    /** An API answer as apiHandler makes it: JSON, no-store, after asking who is calling. */
    function api(options: { setsCookie?: boolean } = {}) {
      let answers = 0;
      const handle: HandleRequest = async (request) => {
        answers += 1;
        const secret = await readSessionSecret(request);
        return new Response(JSON.stringify({ answer: answers, signedIn: Boolean(secret) }), {
          headers: {
            "Content-Type": "application/json; charset=utf-8",
            "Cache-Control": "no-store",
            ...(options.setsCookie ? { "Set-Cookie": "__session=x" } : {}),
          },
        });
      };
      return { handle, answers: () => answers };
    }

    it("an anonymous caller's listed answer is kept despite no-store and served to the next one", async () => {
      const source = api();
      const cached = visitorPageCache(source.handle, {
        ttlMs: 60_000,
        pages: PAGES,
        answers: ANSWERS,
      });
      const first = await cached(get("/api/marketplace?limit=10"), context());
      expect(first.headers.get("X-Page-Cache")).toBe("miss");
      const second = await cached(get("/api/marketplace?limit=10"), context());
      expect(second.headers.get("X-Page-Cache")).toBe("hit");
      expect(await second.json()).toEqual({ answer: 1, signedIn: false });
      // What the client is told stays as the API said it.
      expect(second.headers.get("Cache-Control")).toBe("no-store");
      expect(source.answers()).toBe(1);
    });

    it("a search, a bearer token, a session cookie or an answer that sets a cookie always reaches the API", async () => {
      const source = api();
      const cached = visitorPageCache(source.handle, {
        ttlMs: 60_000,
        pages: PAGES,
        answers: ANSWERS,
      });
      const session = (await createSessionCookie(getConfig()).serialize("secret-1")).split(";")[0];
      for (const [path, headers] of [
        ["/api/marketplace?q=cat", {}],
        ["/api/marketplace", { Authorization: "Bearer abc" }],
        ["/api/marketplace", { Cookie: session }],
      ] as const) {
        await cached(get(path, headers), context());
        expect(
          (await cached(get(path, headers), context())).headers.get("X-Page-Cache"),
          path,
        ).toBeNull();
      }
      expect(cached.size).toBe(0);
      const cookieSetter = visitorPageCache(api({ setsCookie: true }).handle, {
        ttlMs: 60_000,
        pages: PAGES,
        answers: ANSWERS,
      });
      await cookieSetter(get("/api/marketplace"), context());
      expect(cookieSetter.size).toBe(0);
      // A JSON answer at a path listed as a page is not kept either (pages are HTML).
      const asPage = visitorPageCache(api().handle, {
        ttlMs: 60_000,
        pages: { "/api/marketplace": [] },
      });
      await asPage(get("/api/marketplace"), context());
      expect(asPage.size).toBe(0);
    });
  });
});

describe("pages named by a pattern (a listing's page, a storefront)", () => {
  const PATTERNS = {
    "/marketplace": ["style"],
    "/marketplace/*": [],
    "/creators/*": ["style", "q", "cursor"],
  } as const;

  it("keys one segment under a `/*` page with its own parameters, and nothing deeper, shorter or with other parameters", async () => {
    expect(cacheKey(get("/marketplace/abc123"), PATTERNS)).toBe("/marketplace/abc123");
    expect(cacheKey(get("/creators/ada?style=anime&cursor=x"), PATTERNS)).toBe(
      "/creators/ada?style=anime&cursor=x",
    );
    for (const path of [
      "/marketplace/abc/def",
      "/marketplace/",
      "/creators/",
      "/creators",
      "/marketplace/abc?style=anime",
      "/creators/ada?session_id=1",
      "/other/abc",
    ]) {
      expect(cacheKey(get(path), PATTERNS), path).toBeNull();
    }
    expect(cacheKey(get("/marketplace/abc", { Cookie: "__cart=xyz" }), PATTERNS)).toBeNull();

    const page = renderer();
    const cached = visitorPageCache(page.handle, { ttlMs: 60_000, pages: PATTERNS });
    const first = await cached(get("/marketplace/abc"), context());
    expect(first.headers.get("X-Page-Cache")).toBe("miss");
    await first.text();
    const second = await cached(get("/marketplace/abc"), context());
    expect(second.headers.get("X-Page-Cache")).toBe("hit");
    expect(await second.text()).toContain("render 1 of /marketplace/abc");
    expect(await (await cached(get("/marketplace/other"), context())).text()).toContain(
      "render 2 of /marketplace/other",
    );
  });
});
