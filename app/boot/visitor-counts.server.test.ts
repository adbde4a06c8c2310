import http from "node:http";
import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import type { AddressInfo } from "node:net";
import os from "node:os";
import SQLite from "better-sqlite3";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getConfig, type Config } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { loader as listingPage } from "~/routes/_market+/marketplace_.$listingId";
import { action as cartAction } from "~/routes/_market+/cart";
import { createHttpApp } from "~/web/http-app.server";
import { viewDay } from "~/features/market/catalog/marketplace-search.server";
import { visitorOf } from "~/features/market/analytics/listing-visitors.server";
import {
  LISTINGS_COUNTED_PER_VISITOR_DAY,
  flushListingViews,
} from "~/features/market/analytics/listing-view-counts.server";
import { CART_ADDS_COUNTED_PER_VISITOR_DAY } from "~/features/market/analytics/analytics.server";
import { callRoute, formRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { replayMarketplaceViews } from "./site-app.server";
import { testTies } from "#tests/setup/ties";
import { rowWhere } from "#tests/setup/rows-where";

/**
 * The creators' view and add-to-cart counts as the network sees a visitor:
 * over real sockets, through the HTTP front (a proxy in front, TRUST_PROXY=1,
 * so each request names its client in X-Forwarded-For) and the visitors' page
 * cache, with the listing page's own loader behind them.
 */

let origin = "";
let server: http.Server;

beforeAll(async () => {
  const config: Config = {
    ...getConfig(),
    TRUST_PROXY: { kind: "hops", hops: 1 },
    PAGE_CACHE_MS: 60_000,
  };
  const app = createHttpApp({
    ties: testTies,
    apiRoutes: API_ROUTES,
    config,
    publicDir: os.tmpdir(),
    // The listing page's loader, its data standing in for the HTML (the cache keeps HTML only).
    handle: async (request, context) => {
      const response = await callRoute(
        listingPage,
        request,
        { listingId: new URL(request.url).pathname.split("/").pop() ?? "" },
        context,
      );
      return new Response(JSON.stringify(await response.json()), {
        headers: { "Content-Type": "text/html" },
      });
    },
    replayPageNotes: replayMarketplaceViews,
  });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeAllConnections();
  await closed;
});

afterEach(() => vi.restoreAllMocks());

/** A visit of the listing's page by a visitor at `address` with `userAgent`. */
async function visit(listingId: string, address: string, userAgent = "Firefox") {
  const response = await fetch(`${origin}/marketplace/${listingId}`, {
    headers: { "User-Agent": userAgent, "X-Forwarded-For": address },
  });
  expect(response.status).toBe(200);
  return { body: await response.text(), cache: response.headers.get("X-Page-Cache") };
}

async function dayRow(listingId: string) {
  const row = await getDb()
    .selectFrom("listing_days")
    .select(["views", "cart_adds"])
    .where("listing_id", "=", listingId)
    .where("day", "=", viewDay(new Date()))
    .executeTakeFirst();
  return row ?? { views: 0, cart_adds: 0 };
}

async function viewCount(listingId: string) {
  await flushListingViews(getDb());
  const { view_count } = await rowWhere("listings", "view_count", "id", listingId);
  return { total: view_count, today: (await dayRow(listingId)).views };
}

/** Every statement the database is sent from here on, on either engine (transactions' included). */
function watchStatements(): string[] {
  const seen: string[] = [];
  const sqlite = SQLite.prototype as unknown as { prepare(text: string): unknown };
  const prepare = sqlite.prepare;
  vi.spyOn(sqlite, "prepare").mockImplementation(function (this: unknown, text: string) {
    seen.push(text);
    return prepare.call(this, text);
  });
  const client = pg.Client.prototype as unknown as { query(...args: unknown[]): unknown };
  const query = client.query;
  vi.spyOn(client, "query").mockImplementation(function (this: unknown, ...args: unknown[]) {
    if (typeof args[0] === "string") seen.push(args[0]);
    return query.apply(this, args);
  });
  return seen;
}

/** `count` rows of other listings for the visitor at `address` today, as earlier requests would have left. */
async function earlierRows(
  table: "listing_views" | "listing_cart_adds",
  address: string,
  count: number,
) {
  const now = new Date();
  const { visitorHash } = visitorOf({ user: null, clientIp: address, now });
  const rows = Array.from({ length: count }, (_, i) => ({
    day: viewDay(now),
    visitor_hash: visitorHash,
    listing_id: `earlier-${i}`,
  }));
  for (let i = 0; i < rows.length; i += 200)
    await getDb()
      .insertInto(table)
      .values(rows.slice(i, i + 200))
      .execute();
}

const writes = (statements: string[]) =>
  statements.filter((text) => /^\s*(insert|update|delete|replace)\b/i.test(text));

describe("a listing's views", () => {
  it("20 requests with 20 User-Agents from one address add at most one view", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    for (let i = 0; i < 20; i++) await visit(listing.id, "198.51.100.20", `Browser ${i}`);
    expect(await viewCount(listing.id)).toEqual({ total: 1, today: 1 });
    // Another address is another visitor.
    await visit(listing.id, "198.51.100.21", "Browser 0");
    expect(await viewCount(listing.id)).toEqual({ total: 2, today: 2 });
  });

  it("counts IPv6 addresses in one /64 once, in two /64s twice", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    await visit(listing.id, "2001:db8:1:2::1");
    await visit(listing.id, "2001:db8:1:2:ffff:ffff:ffff:fffe", "Safari");
    await visit(listing.id, "2001:0db8:0001:0002:0000:0000:0000:0abc", "Chrome");
    expect((await viewCount(listing.id)).today).toBe(1);
    await visit(listing.id, "2001:db8:1:3::1");
    expect((await viewCount(listing.id)).today).toBe(2);
  });

  it("page-cache hits write nothing to the database; their views are written later together", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    expect((await visit(listing.id, "192.0.2.1")).cache).toBe("miss");
    await flushListingViews(getDb());
    const statements = watchStatements();
    const hits = 50;
    for (let i = 0; i < hits; i++)
      expect((await visit(listing.id, `192.0.2.${i + 10}`, `Agent ${i}`)).cache).toBe("hit");
    expect(writes(statements)).toEqual([]);
    // The batch: one transaction whatever the number of views in it.
    await flushListingViews(getDb());
    const written = writes(statements);
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThanOrEqual(4);
    vi.restoreAllMocks();
    expect(await viewCount(listing.id)).toEqual({ total: hits + 1, today: hits + 1 });
  });

  it(`counts at most ${LISTINGS_COUNTED_PER_VISITOR_DAY} listings per visitor and day`, async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const others = await Promise.all(
      Array.from({ length: 3 }, () => createListing(creator.user.id)),
    );
    const db = getDb();
    // The visitor's day so far: the cap less one listing, as an earlier batch (or another process) wrote it.
    await earlierRows("listing_views", "203.0.113.99", LISTINGS_COUNTED_PER_VISITOR_DAY - 1);
    await visit(listing.id, "203.0.113.99");
    for (const other of others) await visit(other.listing.id, "203.0.113.99");
    await flushListingViews(db);
    const counted = [listing.id, ...others.map((other) => other.listing.id)];
    const views = await Promise.all(counted.map(async (id) => (await dayRow(id)).views));
    expect(views.reduce((sum, n) => sum + n, 0)).toBe(1);
    // Another address is not held back.
    await visit(others[2]!.listing.id, "203.0.113.100");
    expect((await viewCount(others[2]!.listing.id)).today).toBe(views[3]! + 1);
  });
});

describe("a listing's adds to carts", () => {
  const add = (listingId: string, clientIp: string, userAgent: string) =>
    callRoute(
      cartAction,
      formRequest(
        "/cart",
        { intent: "add", listingId, redirectTo: "/marketplace" },
        { headers: { "User-Agent": userAgent } },
      ),
      {},
      { ties: testTies, clientIp, nonce: "n" },
    );

  it("20 adds with 20 User-Agents from one address add at most one", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    for (let i = 0; i < 20; i++)
      expect((await add(listing.id, "198.51.100.40", `Browser ${i}`)).status).toBe(302);
    expect((await dayRow(listing.id)).cart_adds).toBe(1);
    await add(listing.id, "198.51.100.41", "Browser 0");
    expect((await dayRow(listing.id)).cart_adds).toBe(2);
  });

  it(`counts at most ${CART_ADDS_COUNTED_PER_VISITOR_DAY} listings per visitor and day`, async () => {
    const creator = await createTestUser();
    const listings = await Promise.all(
      Array.from({ length: 3 }, () => createListing(creator.user.id)),
    );
    await earlierRows("listing_cart_adds", "198.51.100.42", CART_ADDS_COUNTED_PER_VISITOR_DAY - 1);
    for (const { listing } of listings) await add(listing.id, "198.51.100.42", "Firefox");
    const adds = await Promise.all(
      listings.map(async ({ listing }) => (await dayRow(listing.id)).cart_adds),
    );
    expect(adds.reduce((sum, n) => sum + n, 0)).toBe(1);
    // Another address still counts.
    await add(listings.at(-1)!.listing.id, "198.51.100.43", "Firefox");
    expect((await dayRow(listings.at(-1)!.listing.id)).cart_adds).toBe(adds.at(-1)! + 1);
  });
});
