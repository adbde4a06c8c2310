import crypto from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { cachedMarketplacePage } from "#tests/setup/marketplace-views";
import { getDb } from "~/infra/db.server";
import { action as cartAction } from "~/routes/_market+/cart";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { insertSale } from "#tests/setup/ledger-fixtures";
import { viewDay, visitorHash } from "~/features/market/catalog/marketplace-search.server";
import {
  flushListingViews,
  noteListingViews,
} from "~/features/market/analytics/listing-view-counts.server";
import {
  forgetOldVisitorDays,
  VISITOR_DAYS_KEPT,
} from "~/features/market/analytics/listing-visitors.server";
import {
  creatorAnalytics,
  rangeDays,
  recordCartAdd,
} from "~/features/market/analytics/analytics.server";
import { apiRoute } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";
import { rowsWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const { loader: analyticsApi } = apiRoute("/api/token-analytics");

const KEY = crypto.randomBytes(32);
const DAY_MS = 24 * 60 * 60 * 1000;

async function dayRow(listingId: string, day: string) {
  await flushListingViews(getDb());
  const row = await getDb()
    .selectFrom("listing_days")
    .select(["views", "cart_adds", "saves", "creator_id"])
    .where("listing_id", "=", listingId)
    .where("day", "=", day)
    .executeTakeFirst();
  return row ?? null;
}

describe("views per day", () => {
  it("count once per visitor and UTC day on the listing's day row, and again the next day", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const browser = { clientIp: "198.51.100.9" };
    const view = (at: Date, visitor: { clientIp: string } = browser) =>
      noteListingViews(
        db,
        [listing.id],
        { userId: null, visitorHash: visitorHash(KEY, visitor, viewDay(at)) },
        at,
      );

    const monday = new Date("2026-11-23T23:59:00.000Z");
    view(monday);
    view(new Date(monday.getTime() + 30_000));
    expect(await dayRow(listing.id, "2026-11-23")).toEqual({
      views: 1,
      cart_adds: 0,
      saves: 0,
      creator_id: creator.user.id,
    });
    view(monday, { clientIp: "198.51.100.10" });
    expect((await dayRow(listing.id, "2026-11-23"))?.views).toBe(2);

    // Two minutes later it is Tuesday in UTC: the same visitor counts again, on Tuesday's row.
    view(new Date(monday.getTime() + 120_000));
    expect((await dayRow(listing.id, "2026-11-24"))?.views).toBe(1);
    expect((await dayRow(listing.id, "2026-11-23"))?.views).toBe(2);
  });

  it("a marketplace page served from the visitors' cache counts on the day too", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { title: "Cached and counted" });
    const page = cachedMarketplacePage();
    const visit = async (userAgent: string, clientIp: string) => {
      const context: AppLoadContext = { clientIp, nonce: "n", ties: testTies };
      const response = await page(
        makeRequest("/marketplace", { headers: { "User-Agent": userAgent } }),
        context,
      );
      return { cache: response.headers.get("X-Page-Cache"), text: await response.text() };
    };
    const today = viewDay(new Date());
    expect((await visit("Browser A", "203.0.113.21")).cache).toBe("miss");
    expect((await dayRow(listing.id, today))?.views).toBe(1);
    // Served from the copy: another visitor counts, the same one again does not.
    expect((await visit("Browser B", "203.0.113.22")).cache).toBe("hit");
    expect((await dayRow(listing.id, today))?.views).toBe(2);
    expect((await visit("Browser B", "203.0.113.22")).cache).toBe("hit");
    expect((await dayRow(listing.id, today))?.views).toBe(2);
    // Another browser at the same address is the same visitor.
    expect((await visit("Browser C", "203.0.113.22")).cache).toBe("hit");
    expect((await dayRow(listing.id, today))?.views).toBe(2);
  });
});

describe("add-to-carts per day", () => {
  it("count once per visitor (address) and day from the cart's add, never the creator's own or an unknown listing", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const today = viewDay(new Date());
    const add = (
      headers: Record<string, string>,
      options: { cookie?: string; listingId?: string; clientIp?: string } = {},
    ) =>
      callRoute(
        cartAction,
        formRequest(
          "/cart",
          { intent: "add", listingId: options.listingId ?? listing.id, redirectTo: "/marketplace" },
          { headers, cookie: options.cookie },
        ),
        {},
        { ties: testTies, clientIp: options.clientIp ?? "203.0.113.31", nonce: "n" },
      );
    expect((await add({ "User-Agent": "Firefox" })).status).toBe(302);
    await add({ "User-Agent": "Firefox" });
    await add({ "User-Agent": "Safari" });
    expect((await dayRow(listing.id, today))?.cart_adds).toBe(1);
    await add({ "User-Agent": "Firefox" }, { clientIp: "203.0.113.32" });
    expect((await dayRow(listing.id, today))?.cart_adds).toBe(2);
    // The creator adding their own listing does not count.
    await add({ "User-Agent": "Firefox" }, { cookie: creator.cookie });
    expect((await dayRow(listing.id, today))?.cart_adds).toBe(2);
    // A listing that does not exist counts nothing and breaks nothing.
    expect((await add({ "User-Agent": "Firefox" }, { listingId: "no-such-listing" })).status).toBe(
      302,
    );
    expect(await rowsWhere("listing_days", "listing_id", "no-such-listing")).toEqual([]);
  });

  it("the same visitor counts again the next day, and old visitor rows are purged", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const visitor = { clientIp: "198.51.100.77" };
    const add = (at: Date) =>
      recordCartAdd(
        db,
        listing.id,
        { userId: null, visitorHash: visitorHash(KEY, visitor, viewDay(at)) },
        at,
      );
    const day1 = new Date("2026-11-20T12:00:00.000Z");
    expect(await add(day1)).toBe(true);
    expect(await add(day1)).toBe(false);
    const day2 = new Date(day1.getTime() + DAY_MS);
    expect(await add(day2)).toBe(true);
    expect([
      (await dayRow(listing.id, "2026-11-20"))?.cart_adds,
      (await dayRow(listing.id, "2026-11-21"))?.cart_adds,
    ]).toEqual([1, 1]);
    const later = new Date(day2.getTime() + VISITOR_DAYS_KEPT * DAY_MS);
    await add(later);
    await forgetOldVisitorDays(db, later);
    const kept = await selectWhere("listing_cart_adds", "day", "listing_id", listing.id);
    expect(kept.map((row) => row.day)).toEqual([viewDay(later)]);
    // The day counts stay.
    expect((await dayRow(listing.id, "2026-11-20"))?.cart_adds).toBe(1);
  });
});

describe("a creator's analytics", () => {
  it("puts each sale and its earnings on its UTC day, net of refunds, and only in its range", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const now = new Date("2026-11-26T10:00:00.000Z");
    const sale = async (
      at: string,
      { status, reversed = 0 }: { status?: "reversed"; reversed?: number } = {},
    ) => {
      const { listingId } = await insertSale(creator.user.id, { amountCents: 850, feeCents: 150 });
      await db
        .updateTable("earnings")
        .set({ created_at: at, creator_reversed_cents: reversed, ...(status ? { status } : {}) })
        .where("listing_id", "=", listingId)
        .execute();
      return listingId;
    };
    const kept = await sale("2026-11-25T23:59:59.000Z");
    await sale("2026-11-25T08:00:00.000Z", { reversed: 200 });
    await sale("2026-11-26T00:00:00.000Z", { status: "reversed", reversed: 850 });
    await sale("2026-11-19T23:59:59.999Z"); // the day before a 7-day range starts
    await db
      .insertInto("listing_days")
      .values({
        listing_id: kept,
        creator_id: creator.user.id,
        day: "2026-11-25",
        views: 4,
        cart_adds: 2,
      })
      .execute();

    const week = await creatorAnalytics(db, creator.user.id, 7, now, { includeTestSales: true });
    expect(week.days.map((day) => day.date)).toEqual(rangeDays(7, now));
    expect(week.days[0]!.date).toBe("2026-11-20");
    expect(week.days.find((day) => day.date === "2026-11-25")).toEqual({
      date: "2026-11-25",
      views: 4,
      addsToCart: 2,
      saves: 0,
      sales: 2,
      conversion: 0.5,
      earnings: "15", // 8.50 + (8.50 - 2.00)
      testSales: 0,
    });
    // Refunded in full: no sale, no earnings.
    expect(week.days.find((day) => day.date === "2026-11-26")).toMatchObject({
      sales: 0,
      earnings: "0",
      conversion: null,
    });
    expect(week.days.reduce((sum, day) => sum + day.sales, 0)).toBe(2);
    expect(week.listings.find((listing) => listing.listingId === kept)).toMatchObject({
      views: 4,
      sales: 1,
      conversion: 0.25,
      earnings: "8.50",
    });

    // 30 days take the 19th's sale too; a production server leaves test-checkout sales out.
    const month = await creatorAnalytics(db, creator.user.id, 30, now, { includeTestSales: true });
    expect(month.days).toHaveLength(30);
    expect(month.days.reduce((sum, day) => sum + day.sales, 0)).toBe(3);
    await updateWhere("earnings", { test_mode: 1 }, "creator_id", creator.user.id);
    const live = await creatorAnalytics(db, creator.user.id, 30, now, { includeTestSales: false });
    expect(live.days.reduce((sum, day) => sum + day.sales, 0)).toBe(0);
    expect(live.days.reduce((sum, day) => sum + Number(day.earnings), 0)).toBe(0);
    // ...and counts them apart, on their day (the refunded one not at all).
    expect(
      live.days.filter((day) => day.testSales > 0).map((day) => [day.date, day.testSales]),
    ).toEqual([
      ["2026-11-19", 1],
      ["2026-11-25", 2],
    ]);
  });

  it("lists the creator's live listings, even without views, and nobody else's", async () => {
    const creator = await createTestUser();
    const other = await createTestUser();
    const { listing } = await createListing(creator.user.id, { title: "Quiet one" });
    const { listing: theirs } = await createListing(other.user.id);
    const report = await creatorAnalytics(getDb(), creator.user.id, 30, new Date(), {
      includeTestSales: true,
    });
    expect(report.listings).toEqual([
      {
        listingId: listing.id,
        title: "Quiet one",
        views: 0,
        saves: 0,
        sales: 0,
        conversion: null,
        earnings: "0",
      },
    ]);
    expect(JSON.stringify(report)).not.toContain(theirs.id);
  });
});

describe("GET /api/token-analytics", () => {
  it("answers one entry per day of the range and the listings, for 7, 30 or 90 days (30 when left out)", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { title: "On the API" });
    for (const [query, length] of [
      ["?days=7", 7],
      ["?days=30", 30],
      ["?days=90", 90],
      ["", 30],
    ] as const) {
      const response = await callRoute(
        analyticsApi,
        makeRequest(`/api/token-analytics${query}`, { token: creator.token }),
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        days: Record<string, unknown>[];
        listings: Record<string, unknown>[];
      };
      expect(body.days).toHaveLength(length);
      expect(body.days[length - 1]).toEqual({
        date: viewDay(new Date()),
        views: 0,
        addsToCart: 0,
        saves: 0,
        sales: 0,
        conversion: null,
        earnings: "0",
        testSales: 0,
      });
      expect(body.listings).toEqual([
        {
          listingId: listing.id,
          title: "On the API",
          views: 0,
          saves: 0,
          sales: 0,
          conversion: null,
          earnings: "0",
        },
      ]);
    }
  });

  it("refuses another range with a 400 that names the allowed values, and a caller who is not signed in with a 401", async () => {
    const creator = await createTestUser();
    for (const days of ["14", "0", "7.5", "abc", "-30"]) {
      const response = await callRoute(
        analyticsApi,
        makeRequest(`/api/token-analytics?days=${days}`, { token: creator.token }),
      );
      expect(response.status, days).toBe(400);
      expect(JSON.stringify(await response.json())).toContain("days must be 7, 30 or 90");
    }
    expect((await callRoute(analyticsApi, makeRequest("/api/token-analytics?days=7"))).status).toBe(
      401,
    );
  });
});
