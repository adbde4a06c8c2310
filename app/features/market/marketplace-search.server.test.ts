import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { loader as marketplacePage } from "~/routes/_market+/marketplace";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import {
  LISTING_VIEW_DAYS_KEPT,
  recordListingViews,
  viewDay,
  visitorHash,
} from "~/features/market/marketplace-search.server";

const KEY = crypto.randomBytes(32);
const DAY_MS = 24 * 60 * 60 * 1000;

async function viewsOf(listingId: string) {
  const row = await getDb()
    .selectFrom("listings")
    .select("view_count")
    .where("id", "=", listingId)
    .executeTakeFirstOrThrow();
  return row.view_count;
}

describe("listing views", () => {
  it("count once per visitor, listing and day, never the creator's own, and old days are purged", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const { listing: a } = await createListing(creator.user.id);
    const { listing: b } = await createListing(creator.user.id);
    const day1 = new Date("2026-11-24T08:00:00.000Z");
    const browser = { clientIp: "198.51.100.4", userAgent: "Firefox" };
    const view = (visitor: Parameters<typeof visitorHash>[1], at: Date, ids = [a.id, b.id]) =>
      recordListingViews(
        db,
        ids,
        {
          userId: "userId" in visitor ? visitor.userId : null,
          visitorHash: visitorHash(KEY, visitor, viewDay(at)),
        },
        at,
      );

    await view(browser, day1);
    await view(browser, new Date(day1.getTime() + 60_000));
    await view(browser, day1, [a.id]);
    expect([await viewsOf(a.id), await viewsOf(b.id)]).toEqual([1, 1]);

    // Another browser at the same address, or a signed-in user, is another visitor.
    await view({ clientIp: browser.clientIp, userAgent: "Chrome" }, day1);
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

    // Only hashes are kept: no address, agent or user id.
    const rows = await db.selectFrom("listing_views").selectAll().execute();
    const stored = JSON.stringify(rows);
    for (const clear of [browser.clientIp, "Firefox", reader.user.id, creator.user.id])
      expect(stored).not.toContain(clear);

    // Rows older than the days kept go when views are recorded.
    const muchLater = new Date(day2.getTime() + LISTING_VIEW_DAYS_KEPT * DAY_MS);
    await view(browser, muchLater, [a.id]);
    const days = [
      ...new Set(
        (await db.selectFrom("listing_views").select("day").execute()).map((row) => row.day),
      ),
    ];
    expect(days).toEqual([viewDay(muchLater)]);
    expect(await viewsOf(a.id)).toBe(5);
  });

  it("a visitor without an account is the client address with the user agent", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { title: "Counted once" });
    const visit = (userAgent: string, clientIp = "203.0.113.7") =>
      callRoute(
        marketplacePage,
        makeRequest(`/marketplace?listing=${listing.id}`, { headers: { "User-Agent": userAgent } }),
        {},
        {
          clientIp,
          nonce: "test",
        },
      );
    await visit("Firefox");
    await visit("Firefox");
    expect(await viewsOf(listing.id)).toBe(1);
    await visit("Safari");
    await visit("Firefox", "203.0.113.8");
    expect(await viewsOf(listing.id)).toBe(3);
  });
});
