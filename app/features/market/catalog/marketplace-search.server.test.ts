import crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { viewCountOf } from "#tests/setup/marketplace-views";
import { getDb } from "~/infra/db.server";
import { loader as marketplacePage } from "~/routes/_market+/marketplace";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { viewDay, visitorHash } from "~/features/market/catalog/marketplace-search.server";
import {
  flushAllListingViews,
  flushListingViews,
  noteListingViews,
  VIEW_FLUSH_MS,
} from "~/features/market/analytics/listing-view-counts.server";
import {
  forgetOldVisitorDays,
  VISITOR_DAYS_KEPT,
} from "~/features/market/analytics/listing-visitors.server";
import { testTies } from "#tests/setup/ties";

const KEY = crypto.randomBytes(32);
const DAY_MS = 24 * 60 * 60 * 1000;

const viewsOf = viewCountOf;

describe("listing views", () => {
  it("count once per visitor, listing and day, never the creator's own", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const { listing: a } = await createListing(creator.user.id);
    const { listing: b } = await createListing(creator.user.id);
    const day1 = new Date("2026-11-24T08:00:00.000Z");
    const browser = { clientIp: "198.51.100.4" };
    const view = async (
      visitor: Parameters<typeof visitorHash>[1],
      at: Date,
      ids = [a.id, b.id],
    ) => {
      noteListingViews(
        db,
        ids,
        {
          userId: "userId" in visitor ? visitor.userId : null,
          visitorHash: visitorHash(KEY, visitor, viewDay(at)),
        },
        at,
      );
      await flushListingViews(db);
    };

    await view(browser, day1);
    await view(browser, new Date(day1.getTime() + 60_000));
    await view(browser, day1, [a.id]);
    expect([await viewsOf(a.id), await viewsOf(b.id)]).toEqual([1, 1]);

    // Another address, or a signed-in user, is another visitor.
    await view({ clientIp: "198.51.100.5" }, day1);
    const reader = await createTestUser();
    await view({ userId: reader.user.id }, day1);
    await view({ userId: reader.user.id }, day1);
    expect(await viewsOf(a.id)).toBe(3);

    // The creator's own views never count.
    await view({ userId: creator.user.id }, day1);
    expect(await viewsOf(a.id)).toBe(3);

    // The next day (UTC) the same visitor counts again.
    const day2 = new Date("2026-11-25T00:00:01.000Z");
    await view(browser, day2);
    expect(await viewsOf(a.id)).toBe(4);

    // Only hashes are kept: no address or user id.
    const rows = await db.selectFrom("listing_views").selectAll().execute();
    const stored = JSON.stringify(rows);
    for (const clear of [browser.clientIp, reader.user.id, creator.user.id])
      expect(stored).not.toContain(clear);

    // The hourly sweep forgets the days before yesterday; the counts stay.
    const muchLater = new Date(day2.getTime() + VISITOR_DAYS_KEPT * DAY_MS);
    await view(browser, muchLater, [a.id]);
    await forgetOldVisitorDays(db, muchLater);
    const days = [
      ...new Set(
        (await db.selectFrom("listing_views").select("day").execute()).map((row) => row.day),
      ),
    ];
    expect(days).toEqual([viewDay(muchLater)]);
    expect(await viewsOf(a.id)).toBe(5);
  });

  it("a visitor without an account is the client address, whatever its user agent", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { title: "Counted once" });
    const visit = (userAgent: string, clientIp = "203.0.113.7") =>
      callRoute(
        marketplacePage,
        makeRequest(`/marketplace?listing=${listing.id}`, { headers: { "User-Agent": userAgent } }),
        {},
        { ties: testTies, clientIp, nonce: "test" },
      );
    await visit("Firefox");
    await visit("Firefox");
    await visit("Safari");
    await flushListingViews(getDb());
    expect(await viewsOf(listing.id)).toBe(1);
    await visit("Firefox", "203.0.113.8");
    await flushListingViews(getDb());
    expect(await viewsOf(listing.id)).toBe(2);
  });

  it("a batch that cannot be written waits for the next write, and counts once", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const now = new Date();
    const viewer = {
      userId: null,
      visitorHash: visitorHash(KEY, { clientIp: "192.0.2.9" }, viewDay(now)),
    };
    noteListingViews(db, [listing.id], viewer, now);
    const failing = vi.spyOn(db, "transaction").mockImplementationOnce(() => {
      throw new Error("database away");
    });
    await expect(flushListingViews(db)).rejects.toThrow("database away");
    failing.mockRestore();
    expect(await viewsOf(listing.id)).toBe(0);
    expect(await flushListingViews(db)).toBe(1);
    expect(await viewsOf(listing.id)).toBe(1);
  });

  it("noted views are written by the timer after VIEW_FLUSH_MS, and by flushAllListingViews when the process stops", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const now = new Date();
    const viewer = (clientIp: string) => ({
      userId: null,
      visitorHash: visitorHash(KEY, { clientIp }, viewDay(now)),
    });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      noteListingViews(db, [listing.id], viewer("192.0.2.31"), now);
      await vi.advanceTimersByTimeAsync(VIEW_FLUSH_MS - 1);
      expect(await viewsOf(listing.id)).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
    } finally {
      vi.useRealTimers();
    }
    // The write the timer started is under way: waiting for the batch waits for it.
    await flushListingViews(db);
    expect(await viewsOf(listing.id)).toBe(1);

    noteListingViews(db, [listing.id], viewer("192.0.2.32"), now);
    await flushAllListingViews();
    expect(await viewsOf(listing.id)).toBe(2);
  });
});
