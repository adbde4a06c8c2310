import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { DEMO_CREATOR } from "../../db/demo-account";
import { ROOT, PROCESS_ADMIN, startServer, type RunningServer } from "./support/server-process";

/**
 * The visitors' page cache of the production server, under many interleaved
 * requests from different people over real sockets: signed-in creators and
 * the admin, a visitor with a cart, one with a flash message, one coming back
 * from a payment, and plain visitors; and session cookies written the way no
 * browser writes them but the session's parser still reads them (a space or a
 * tab before `=`, a duplicated cookie) or does not (the name in other case,
 * the non-production name). No one ever receives a page made for someone
 * else, every response carries its own CSP nonce, and plain visitors really
 * are served from the cache.
 */
const scratch = path.join(ROOT, "tests", ".tmp", "process-page-cache");
const PAGES = [
  "/",
  "/landing",
  "/training",
  "/marketplace",
  "/marketplace?style=anime",
  "/marketplace?q=portrait",
];

let server: RunningServer;

test.beforeAll(async () => {
  fs.rmSync(scratch, { recursive: true, force: true });
  // A long-lived copy, so most plain visitors are served from one.
  // Every request comes from one address: the search throttle is lifted so the ?q= pages are all served (the throttle has its own tests).
  server = await startServer({
    dataDir: path.join(scratch, "data"),
    port: 3670,
    seed: true,
    env: { PAGE_CACHE_MS: "60000", SEARCHES_PER_ADDRESS: "100000" },
  });
});

test.afterAll(async () => {
  await server?.stop();
});

/** Posts a form as a browser without JavaScript does, not following the redirect it answers. */
function postForm(pathname: string, fields: Record<string, string>) {
  return server.fetch(pathname, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Signs in through the form, as a browser without JavaScript does; answers the session cookie and the flash cookie. */
async function signIn(email: string, password: string) {
  const response = await postForm("/auth", {
    intent: "login",
    email,
    password,
    redirectTo: "/dashboard",
  });
  expect(response.status).toBe(302);
  const cookies = response.headers.getSetCookie().map((line) => line.split(";")[0]!);
  const session = cookies.find((c) => c.startsWith("__Host-session="));
  const flash = cookies.find((c) => c.startsWith("__Host-flash="));
  expect(session).toBeDefined();
  expect(flash).toBeDefined();
  return { session: session!, flash: flash! };
}

interface Person {
  name: string;
  cookie?: string;
  pages: string[];
  /** What only this person's pages show (the same for one person's several ways of sending their cookie). */
  own: RegExp[];
  /** The server reads a signed-in user from the cookie. */
  signedIn?: boolean;
}

test("no visitor ever receives another person's page, and each response has its own nonce", async () => {
  test.setTimeout(300_000);
  const creator = await signIn(DEMO_CREATOR.email, DEMO_CREATOR.password);
  const admin = await signIn(PROCESS_ADMIN.email, PROCESS_ADMIN.password);
  const listings = (await (await server.fetch("/api/marketplace")).json()) as {
    items: { id: string; title: string }[];
  };
  expect(listings.items.length).toBeGreaterThan(0);
  const added = await postForm("/cart", {
    intent: "add",
    listingId: listings.items[0]!.id,
    redirectTo: "/marketplace",
  });
  const cart = added.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .find((c) => c.startsWith("__Host-cart="));
  expect(cart).toBeDefined();

  const creatorMarker = new RegExp(DEMO_CREATOR.email);
  const adminMarker = new RegExp(PROCESS_ADMIN.email);
  const sessionValue = (pair: string) => pair.slice(pair.indexOf("=") + 1);
  const creatorValue = sessionValue(creator.session);
  const adminValue = sessionValue(admin.session);
  const people: Person[] = [
    {
      name: "creator",
      cookie: creator.session,
      pages: PAGES,
      own: [creatorMarker],
      signedIn: true,
    },
    { name: "admin", cookie: admin.session, pages: PAGES, own: [adminMarker], signedIn: true },
    // Read as signed in by the session's parser, which trims blanks around a name and keeps the first of duplicates.
    {
      name: "creator, space before =",
      cookie: `__Host-session =${creatorValue}`,
      pages: PAGES,
      own: [creatorMarker],
      signedIn: true,
    },
    {
      name: "admin, tab before =",
      cookie: `__Host-session\t=${adminValue}`,
      pages: PAGES,
      own: [adminMarker],
      signedIn: true,
    },
    {
      name: "creator, blanks and another cookie",
      cookie: `theme=dark;__Host-session \t =${creatorValue}`,
      pages: PAGES,
      own: [creatorMarker],
      signedIn: true,
    },
    {
      name: "admin, duplicated",
      cookie: `__Host-session =${adminValue}; __Host-session=junk`,
      pages: PAGES,
      own: [adminMarker],
      signedIn: true,
    },
    // Not a session to this server (another case, the non-production name, a bad first copy), yet a cookie of the app's: never cached.
    { name: "other case", cookie: `__HOST-SESSION =${creatorValue}`, pages: PAGES, own: [] },
    { name: "non-production name", cookie: `__session =${creatorValue}`, pages: PAGES, own: [] },
    {
      name: "duplicated, bad first",
      cookie: `__Host-session=junk; __Host-session =${adminValue}`,
      pages: PAGES,
      own: [],
    },
    { name: "cart", cookie: cart!, pages: ["/marketplace"], own: [/data-testid="cart-line"/] },
    // A flash message rides one response; a visitor holding one sees it on whatever page comes next.
    { name: "flash", cookie: creator.flash, pages: ["/marketplace", "/"], own: [/"flash":\{"/] },
    {
      name: "payment return",
      pages: ["/marketplace?session_id=cs_test_leak&success=true"],
      own: [/"returned":true/],
    },
    { name: "visitor", pages: PAGES, own: [] },
  ];
  const everyonesOwn = people.flatMap((person) =>
    person.own.map((marker) => ({ person: person.name, marker })),
  );

  // 750 requests in a shuffled order, 12 at a time.
  const plan = Array.from({ length: 750 }, (_, i) => {
    const person = people[i % people.length]!;
    return { person, page: person.pages[Math.floor(i / people.length) % person.pages.length]! };
  }).sort(() => Math.random() - 0.5);
  const nonces = new Set<string>();
  const hits: Record<string, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const { person, page } = plan[next++]!;
      const response = await server.fetch(page, {
        redirect: "manual",
        headers: {
          ...(person.cookie ? { Cookie: person.cookie } : {}),
          "User-Agent": `leak-test ${crypto.randomUUID()}`,
        },
      });
      const body = await response.text();
      expect(response.status, `${person.name} ${page}`).toBe(200);
      const nonce = /'nonce-([^']+)'/.exec(
        response.headers.get("Content-Security-Policy") ?? "",
      )?.[1];
      expect(nonce, "a CSP nonce").toBeTruthy();
      expect(nonces.has(nonce!), "a nonce is never repeated").toBe(false);
      nonces.add(nonce!);
      const inBody = [...body.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]);
      expect(inBody.length).toBeGreaterThan(0);
      expect(
        new Set(inBody),
        `${person.name} ${page}: the page's nonces are the response's`,
      ).toEqual(new Set([nonce]));

      for (const marker of person.own)
        expect(body, `${person.name} ${page} shows their own ${marker}`).toMatch(marker);
      for (const other of everyonesOwn) {
        if (other.person === person.name || person.own.includes(other.marker)) continue;
        expect(
          body,
          `${person.name} ${page} must not show ${other.person}'s ${other.marker}`,
        ).not.toMatch(other.marker);
      }
      if (!person.signedIn)
        expect(body, `${person.name} ${page} shows no one signed in`).not.toMatch(
          /data-testid="nav-user"/,
        );
      const cacheStatus = response.headers.get("X-Page-Cache");
      if (person.name !== "visitor")
        expect(cacheStatus, `${person.name} is never served from the cache`).toBeNull();
      if (cacheStatus === "hit") hits[page] = (hits[page] ?? 0) + 1;
      const cacheControl = response.headers.get("Cache-Control") ?? "";
      expect(cacheControl, "no page is fit for a shared cache").toMatch(/private/);
    }
  };
  await Promise.all(Array.from({ length: 12 }, worker));

  const visitorRequests = plan.filter((step) => step.person.name === "visitor").length;
  const totalHits = Object.values(hits).reduce((a, b) => a + b, 0);
  console.log(
    `plain visitors: ${totalHits} of ${visitorRequests} requests served from the cache`,
    hits,
  );
  expect(totalHits).toBeGreaterThan(visitorRequests / 2);
  expect(nonces.size).toBe(plan.length);
});
